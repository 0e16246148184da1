import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Database } from '../db/tables.js';
import { claimDueMail, markMailFailed, markMailSent, type MailRow } from './repository.js';

export interface MailSenderOptions {
  /** An smtp:// or smtps:// URL (SMTP_URL), credentials included. */
  smtpUrl: string;
  /** The From header (MAIL_FROM). */
  from: string;
  /** How often the outbox is looked at when nothing kicks the sender. */
  pollMs?: number;
  /** Attempts before a mail is given up (it stays in the outbox with its last error). */
  maxAttempts?: number;
  /** The first retry waits this long; each next one twice as long (at most an hour). */
  baseDelayMs?: number;
}

const BATCH = 20;
/** How long a sender holds the mails it took: past it, another sender may retry them. */
const CLAIM_MS = 5 * 60_000;

/**
 * Sends the outbox: takes due mails (claimDueMail: safe with several processes), sends each,
 * marks it sent, or schedules a retry with exponential backoff. Runs on a timer, and at once when
 * kicked after a transaction that queued a mail.
 */
export class MailSender {
  private readonly transport: Transporter;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: MailSenderOptions,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(options.smtpUrl);
    this.pollMs = options.pollMs ?? 10_000;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 30_000;
  }

  /** Looks at the outbox every pollMs (the timer never keeps the process alive). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
  }

  /** Sends what is due now; a kick during a run makes it run once more. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.deliverDue();
        } catch (error) {
          this.logger.warn({ event: 'mail.outbox.failed', err: error }, 'mail outbox run failed');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Sends every due mail, a batch at a time; answers how many were sent. */
  async deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = Date.now();
      const rows = await claimDueMail(this.db, {
        now: new Date(now).toISOString(),
        lockedUntil: new Date(now + CLAIM_MS).toISOString(),
        limit: BATCH,
        maxAttempts: this.maxAttempts,
      });
      for (const row of rows) if (await this.deliver(row)) sent += 1;
      if (rows.length < BATCH || this.stopped) return sent;
    }
  }

  private async deliver(row: MailRow): Promise<boolean> {
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body !== null && { html: row.html_body }),
        ...(row.headers !== null && { headers: JSON.parse(row.headers) as Record<string, string> }),
      });
      await markMailSent(this.db, row.id, new Date().toISOString());
      this.logger.info({ event: 'mail.sent', mailId: row.id });
      return true;
    } catch (error) {
      const attempt = row.attempts + 1;
      const delay = Math.min(this.baseDelayMs * 2 ** (attempt - 1), 3_600_000);
      await markMailFailed(this.db, row.id, {
        error: error instanceof Error ? error.message : String(error),
        nextAttemptAt: new Date(Date.now() + delay).toISOString(),
      });
      this.logger.warn({ event: 'mail.failed', mailId: row.id, attempt, err: error });
      return false;
    }
  }

  /** Stops the timer, waits for a run under way, closes the SMTP connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }
}
