import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server in this process (the smtp-server package), listening on a free port of
 * 127.0.0.1: what the app sends arrives here over SMTP, as it would at a mail relay.
 */
export interface SmtpInbox {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `to` (waits for it), or the first one already there. */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Refuse (true) or accept (false) every mail from now on, as a relay that is down. */
  refuse(yes: boolean): void;
  close(): Promise<void>;
}

/**
 * The app's mail set up to go out through `inbox`, links starting with `publicUrl`, the outbox
 * polled every 100 ms (a test waits for mail, not for the production pace).
 */
export function mailThrough(inbox: SmtpInbox, publicUrl: string) {
  return {
    smtpUrl: inbox.url,
    from: 'Tasks <tasks@example.com>',
    publicUrl,
    pollMs: 100,
    retryDelayMs: 100,
  };
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusing) {
          callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 451 }));
          return;
        }
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, timeoutMs = 10_000) {
      const started = Date.now();
      for (;;) {
        const found = mails.find((mail) => mail.to.includes(to));
        if (found) return found;
        if (Date.now() - started > timeoutMs) throw new Error(`no mail to ${to} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    refuse(yes) {
      refusing = yes;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link to the reset page in a mail's text (quoted-printable soft breaks undone). */
export function resetLinkIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(text);
  if (!match) throw new Error('no reset link in the mail');
  return match[0];
}
