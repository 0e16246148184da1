import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../../src/scheduler/digest.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import {
  mailThrough,
  startSmtpInbox,
  type ReceivedMail,
  type SmtpInbox,
} from '../helpers/smtp-inbox.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const PUBLIC_URL = 'https://tasks.example.com';

/** A mail's raw text with header folding and quoted-printable soft breaks undone. */
const readable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=')
    .replace(/\r?\n[ \t]+/g, ' ');

const mailsTo = (inbox: SmtpInbox, email: string) =>
  inbox.mails.filter((mail) => mail.to.includes(email));

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function unsubscribeLinkIn(mail: ReceivedMail): string {
  const match = /List-Unsubscribe: <([^>]+)>/.exec(readable(mail.raw));
  if (!match) throw new Error('no List-Unsubscribe header');
  return match[1]!;
}

/** Notification e-mail through the outbox to a real SMTP server in this process. */
describe(`notification e-mail (${ENGINE})`, () => {
  let inbox: SmtpInbox;
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    ctx = await createTestContext({ mail: mailThrough(inbox, PUBLIC_URL) });
    admin = await signUp(ctx, 'admin');
  });
  afterAll(async () => {
    await ctx.close();
    await inbox.close();
  });

  it('mails an assignment at once: text and HTML, the task link, one-click unsubscribe headers', async () => {
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id], { title: 'Quarterly <report>' });
    const mail = readable((await inbox.waitFor(member.email)).raw);
    expect(mail).toMatch(/Subject: You were assigned: Quarterly <report>/);
    expect(mail).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail).toMatch(/Content-Type: text\/plain/);
    expect(mail).toMatch(/Content-Type: text\/html/);
    expect(mail).toContain(`${PUBLIC_URL}/user/task-details/${task._id}`);
    // The title is escaped in the HTML part.
    expect(mail).toContain('Quarterly &lt;report&gt;');
    expect(mail).toMatch(
      new RegExp(`List-Unsubscribe: <${PUBLIC_URL}/api/notifications/unsubscribe\\?token=`),
    );
    expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);

    // An admin's link opens the admin's task page.
    const other = await signUp(ctx, 'admin');
    const adminsTask = await createTask(ctx, admin, [other.id]);
    const adminMail = readable((await inbox.waitFor(other.email)).raw);
    expect(adminMail).toContain(`${PUBLIC_URL}/admin/tasks/${adminsTask._id}`);
  });

  it('unsubscribe: the link’s page changes nothing; the one-click POST turns that kind off', async () => {
    const member = await signUp(ctx, 'member');
    await createTask(ctx, admin, [member.id]);
    const link = new URL(unsubscribeLinkIn(await inbox.waitFor(member.email)));
    expect(link.origin).toBe(PUBLIC_URL);
    const path = `${link.pathname}${link.search}`;

    // What a mail scanner does: follow the link. Nothing changes.
    const page = await ctx.api.get(path).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toMatch(/<form method="post">/);
    // Its look is a style block with the answer's nonce: the policy applies no style attribute.
    const policy = String(page.headers['content-security-policy']);
    const nonce = /style-src [^;]*'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(page.text).toContain(`<style nonce="${nonce}">`);
    expect(page.text).not.toMatch(/\sstyle="/);
    const prefs = () => ctx.api.get('/api/notifications/preferences').set(member.auth).expect(200);
    expect((await prefs()).body.email.assigned).toBe('instant');

    // What a mail client does for one-click (RFC 8058).
    await ctx.api
      .post(path)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect((await prefs()).body.email).toMatchObject({ assigned: 'never', mentioned: 'instant' });

    // No mail for the next assignment, though the notification is there.
    const before = await ctx.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', member.email)
      .execute();
    await createTask(ctx, admin, [member.id]);
    const after = await ctx.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', member.email)
      .execute();
    expect(after).toHaveLength(before.length);
    const list = await ctx.api.get('/api/notifications').set(member.auth).expect(200);
    expect(list.body.items).toHaveLength(2);

    // A forged or altered token changes nothing: the JSON error for a client, a page for a
    // person who clicked the link in a browser.
    const forged = await ctx.api.post(`${path}x`).expect(400);
    expect(forged.body).toMatchObject({ message: 'This unsubscribe link is not valid' });
    await ctx.api.post('/api/notifications/unsubscribe?token=abc.def.ghi').expect(400);
    const shown = await ctx.api
      .get('/api/notifications/unsubscribe?token=abc.def.ghi')
      .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
      .expect(400)
      .expect('Content-Type', /^text\/html/);
    expect(shown.text).toContain('This unsubscribe link is not valid.');
    expect(shown.text).toContain('<a href="/profile#profile-email-notifications">');
  });

  it('the daily digest mails what waits for it once, then nothing', async () => {
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id], { title: 'Digest me' });
    await inbox.waitFor(member.email); // the assignment, at once
    for (const body of ['First', 'Second']) {
      await ctx.api
        .post(`/api/tasks/${task._id}/comments`)
        .set(admin.auth)
        .send({ body })
        .expect(201);
    }
    const due = new Date(Date.now() + 9 * 86_400_000).toISOString();
    await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ dueDate: due }).expect(200);
    // Comments and due dates go to the digest by default: nothing more at once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(inbox, member.email)).toHaveLength(1);

    // Two runs at once (two processes): one digest.
    const queued = await Promise.all([runDigest(ctx.db), runDigest(ctx.db)]);
    expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
    await until(() => mailsTo(inbox, member.email).length >= 2);
    const digest = readable(mailsTo(inbox, member.email)[1]!.raw);
    expect(digest).toMatch(/Subject: Your daily summary: 3 updates/);
    expect(digest.match(/commented on "Digest me"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(digest).toContain(`changed the due date of "Digest me" to ${due.slice(0, 10)}`);
    expect(digest).toContain(`${PUBLIC_URL}/user/task-details/${task._id}`);
    expect(digest).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);

    expect(await runDigest(ctx.db)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(inbox, member.email)).toHaveLength(2);

    // Its link stops the digest kinds only.
    const link = new URL(unsubscribeLinkIn(mailsTo(inbox, member.email)[1]!));
    await ctx.api.post(`${link.pathname}${link.search}`).expect(200);
    const prefs = await ctx.api.get('/api/notifications/preferences').set(member.auth).expect(200);
    expect(prefs.body.email).toEqual({
      assigned: 'instant',
      unassigned: 'never',
      mentioned: 'instant',
      commented: 'never',
      due_changed: 'never',
      due_soon: 'never',
      overdue: 'never',
    });
  });

  it('an SMTP outage during a burst: everything arrives once the relay is back, nothing twice', async () => {
    const member = await signUp(ctx, 'member');
    inbox.refuse(true);
    const titles: string[] = [];
    try {
      for (let i = 0; i < 8; i += 1) {
        titles.push((await createTask(ctx, admin, [member.id], { title: `Burst ${i}` })).title);
      }
      // Every mail was tried and refused at least once.
      await until(async () => {
        const rows = await ctx.db
          .selectFrom('mail_outbox')
          .select('attempts')
          .where('recipient', '=', member.email)
          .execute();
        return rows.length === 8 && rows.every((row) => Number(row.attempts) >= 1);
      });
      expect(mailsTo(inbox, member.email)).toHaveLength(0);
    } finally {
      inbox.refuse(false);
    }
    await until(() => mailsTo(inbox, member.email).length >= 8, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const subjects = mailsTo(inbox, member.email).map((mail) =>
      /Subject: (.*)/.exec(readable(mail.raw))![1]!.trim(),
    );
    expect(subjects).toHaveLength(8);
    expect(new Set(subjects)).toEqual(new Set(titles.map((t) => `You were assigned: ${t}`)));
  });
});
