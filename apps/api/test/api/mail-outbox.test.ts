import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../../src/mail/outbox.js';
import { MailSender } from '../../src/mail/sender.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`the mail outbox (${ENGINE})`, () => {
  let inbox: SmtpInbox;
  let ctx: TestContext;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
    await inbox.close();
  });

  const sender = (options: { baseDelayMs?: number; maxAttempts?: number } = {}) =>
    new MailSender(
      ctx.db,
      { smtpUrl: inbox.url, from: 'Tasks <tasks@example.com>', pollMs: 60_000, ...options },
      pino({ level: 'silent' }),
    );

  it('sends a mail only if the transaction that queued it commits', async () => {
    await ctx.db.transaction().execute(async (trx) => {
      await enqueueMail(trx, { to: 'kept@example.com', subject: 'Kept', text: 'Hello' });
    });
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await enqueueMail(trx, { to: 'gone@example.com', subject: 'Gone', text: 'Hello' });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const mailer = sender();
    try {
      expect(await mailer.deliverDue()).toBe(1);
    } finally {
      await mailer.stop();
    }
    const mail = await inbox.waitFor('kept@example.com');
    expect(mail.raw).toMatch(/Subject: Kept/);
    expect(mail.raw).toMatch(/From: Tasks <tasks@example.com>/);
    expect(inbox.mails.some((m) => m.to.includes('gone@example.com'))).toBe(false);
    const row = await ctx.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', 'kept@example.com')
      .executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
  });

  it('retries with backoff when the relay refuses, then delivers', async () => {
    await ctx.db.transaction().execute(async (trx) => {
      await enqueueMail(trx, { to: 'retry@example.com', subject: 'Retry', text: 'Hello' });
    });
    const mailer = sender({ baseDelayMs: 50 });
    try {
      inbox.refuse(true);
      expect(await mailer.deliverDue()).toBe(0);
      const failed = await ctx.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('recipient', '=', 'retry@example.com')
        .executeTakeFirstOrThrow();
      expect(failed).toMatchObject({ attempts: 1, sent_at: null, locked_until: null });
      expect(failed.last_error).toMatch(/451|unavailable/);
      expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.now() - 10);
      // Not yet due: nothing is tried.
      expect(await mailer.deliverDue()).toBe(0);
      inbox.refuse(false);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await mailer.deliverDue()).toBe(1);
    } finally {
      inbox.refuse(false);
      await mailer.stop();
    }
    await inbox.waitFor('retry@example.com');
  });

  it('never sends one mail twice, with two senders at work at once', async () => {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 12; i++) {
        await enqueueMail(trx, { to: `many-${i}@example.com`, subject: `Many ${i}`, text: 'x' });
      }
    });
    const a = sender();
    const b = sender();
    try {
      const [sentA, sentB] = await Promise.all([a.deliverDue(), b.deliverDue()]);
      expect(sentA + sentB).toBe(12);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    for (let i = 0; i < 12; i++) {
      const copies = inbox.mails.filter((m) => m.to.includes(`many-${i}@example.com`));
      expect(copies, `many-${i}`).toHaveLength(1);
    }
  });
});
