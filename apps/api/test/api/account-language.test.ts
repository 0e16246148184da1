import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationMessages } from '@task-manager/shared';
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

/** A mail as its reader sees it: the subject and both parts decoded (RFC 2047, quoted-printable). */
async function read(mail: ReceivedMail) {
  const parsed = await simpleParser(mail.raw);
  return { subject: parsed.subject ?? '', text: parsed.text ?? '', html: String(parsed.html) };
}

async function until<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The language a person chose in the app is kept on their account, and what the server writes
 * to them speaks it: e-mails of every kind and the unsubscribe pages (English when none was
 * chosen, or the browser's language for a visitor not known).
 */
describe(`the account's language (${ENGINE})`, () => {
  let inbox: SmtpInbox;
  let ctx: TestContext;
  let admin: Session;

  /** The mails to `email`; the one after the first `seen`, read (waits for it). */
  const mailsTo = (email: string) => inbox.mails.filter((mail) => mail.to.includes(email));
  const nextMailTo = async (email: string, seen: number) =>
    read(await until(() => mailsTo(email)[seen]));

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    ctx = await createTestContext({ mail: mailThrough(inbox, PUBLIC_URL) });
    admin = await signUp(ctx, 'admin', { name: 'Ada Admin' });
  });
  afterAll(async () => {
    await ctx.close();
    await inbox.close();
  });

  const setLanguage = (who: Session, language: unknown) =>
    ctx.api.put('/api/auth/profile').set(who.auth).send({ language });

  it('is null until chosen, then kept and answered by the profile and every sign-in', async () => {
    const member = await signUp(ctx, 'member');
    expect(member.user.language).toBeNull();
    const profile = await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
    expect(profile.body.language).toBeNull();

    const changed = await setLanguage(member, 'de').expect(200);
    expect(changed.body).toMatchObject({ language: 'de', name: member.user.name });
    expect(typeof changed.body.token).toBe('string');
    const again = await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
    expect(again.body.language).toBe('de');
    const login = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    expect(login.body.language).toBe('de');

    // Signing up in German keeps it from the start.
    const german = await signUp(ctx, 'member', { language: 'de' });
    expect(german.user.language).toBe('de');
  });

  it('refuses a language the app does not speak, naming the field, and changes nothing', async () => {
    const member = await signUp(ctx, 'member');
    await setLanguage(member, 'de').expect(200);
    for (const bad of ['fr', 'DE', '', 3, null]) {
      const res = await setLanguage(member, bad).expect(400);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            path: 'language',
            message: validationMessages.invalidLanguage,
          }),
        ]),
      );
    }
    const profile = await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
    expect(profile.body.language).toBe('de');
    await ctx.api
      .post('/api/auth/register')
      .send({
        name: 'Sam Sample',
        email: `lang-${Date.now()}@example.com`,
        password: 'a long and unusual passphrase 42',
        language: 'klingon',
      })
      .expect(400);
  });

  it("is the person's own: other people's answers never show it", async () => {
    const member = await signUp(ctx, 'member');
    await setLanguage(member, 'de').expect(200);
    const one = await ctx.api.get(`/api/users/${member.id}`).set(admin.auth).expect(200);
    expect(one.body).not.toHaveProperty('language');
    const list = await ctx.api.get('/api/users').set(admin.auth).expect(200);
    const items = (Array.isArray(list.body) ? list.body : list.body.items) as Array<{
      _id: string;
    }>;
    const listed = items.find((user) => user._id === member.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('language');
  });

  it('mails a notification in the recipient’s language, English when none was chosen', async () => {
    const german = await signUp(ctx, 'member', { name: 'Greta' });
    await setLanguage(german, 'de').expect(200);
    const english = await signUp(ctx, 'member', { name: 'Ed' });
    const task = await createTask(ctx, admin, [german.id, english.id], {
      title: 'Quartalsbericht',
    });

    const de = await nextMailTo(german.email, 0);
    expect(de.subject).toBe('Dir wurde eine Aufgabe zugewiesen: Quartalsbericht');
    expect(de.text).toContain('Hallo Greta,');
    expect(de.text).toContain('Ada Admin hat dir "Quartalsbericht" zugewiesen.');
    expect(de.text).toContain(`Öffnen: ${PUBLIC_URL}/user/task-details/${task._id}`);
    expect(de.text).toContain('E-Mails wie diese abbestellen');
    expect(de.html).toContain('Aufgabe öffnen');
    expect(de.html).toContain('Hallo Greta,');

    const en = await nextMailTo(english.email, 0);
    expect(en.subject).toBe('You were assigned: Quartalsbericht');
    expect(en.text).toContain('Hello Ed,');
    expect(en.text).toContain('Ada Admin assigned you to "Quartalsbericht".');
    expect(en.html).toContain('Open the task');
  });

  it('writes the daily digest in the recipient’s language, with its dates', async () => {
    const german = await signUp(ctx, 'member', { name: 'Dora' });
    await setLanguage(german, 'de').expect(200);
    const task = await createTask(ctx, admin, [german.id], { title: 'Umzug' });
    await until(() => mailsTo(german.email)[0]); // the assignment, at once
    // A due date change goes to the digest by default.
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ dueDate: '2031-03-09T12:00:00.000Z' })
      .expect(200);
    await runDigest(ctx.db);
    const digest = await nextMailTo(german.email, 1);
    expect(digest.subject).toBe('Deine tägliche Zusammenfassung: 1 Neuigkeit');
    expect(digest.text).toContain('Was seit deiner letzten Zusammenfassung passiert ist:');
    expect(digest.text).toContain(
      'Ada Admin hat das Fälligkeitsdatum von "Umzug" auf den 09.03.2031 geändert.',
    );
    expect(digest.text).toContain('Die tägliche Zusammenfassung abbestellen');
  });

  it('shows the unsubscribe pages in the person’s language, else the browser’s', async () => {
    const german = await signUp(ctx, 'member');
    await setLanguage(german, 'de').expect(200);
    await createTask(ctx, admin, [german.id]);
    const mail = await until(() => mailsTo(german.email)[0]);
    const link = /List-Unsubscribe: <([^>]+)>/.exec(mail.raw.replace(/\r?\n[ \t]+/g, ' '))![1]!;
    const path = new URL(link).pathname + new URL(link).search;

    // The person's language wins over the browser's.
    const confirm = await ctx.api.get(path).set('Accept-Language', 'en-US,en;q=0.9').expect(200);
    expect(confirm.text).toContain('<html lang="de">');
    expect(confirm.text).toContain('E-Mails, wenn dir eine Aufgabe zugewiesen wird abbestellen?');
    expect(confirm.text).toContain('<button type="submit">Abbestellen</button>');
    const done = await ctx.api
      .post(path)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(done.text).toContain('<h1>Abbestellt</h1>');
    expect(done.text).toContain('E-Mail-Einstellungen öffnen');

    // A link no one can be told from: the browser's language, else English.
    const invalid = '/api/notifications/unsubscribe?token=abc.def.ghi';
    const html = 'text/html,application/xhtml+xml,*/*;q=0.8';
    const inGerman = await ctx.api
      .get(invalid)
      .set('Accept', html)
      .set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.8')
      .expect(400);
    expect(inGerman.text).toContain('<html lang="de">');
    expect(inGerman.text).toContain('Dieser Link zum Abbestellen ist ungültig.');
    const inEnglish = await ctx.api.get(invalid).set('Accept', html).expect(400);
    expect(inEnglish.text).toContain('<html lang="en">');
    expect(inEnglish.text).toContain('This unsubscribe link is not valid.');
  });

  it('sends the reset link in the account’s language, else in the asking browser’s', async () => {
    const german = await signUp(ctx, 'member', { name: 'Heidi' });
    await setLanguage(german, 'de').expect(200);
    await ctx.api
      .post('/api/auth/password-reset/request')
      .set('Accept-Language', 'en')
      .send({ email: german.email })
      .expect(200);
    const de = await nextMailTo(german.email, 0);
    expect(de.subject).toBe('Setze dein Task-Manager-Passwort zurück');
    expect(de.text).toContain('Hallo Heidi,');
    expect(de.text).toContain(`${PUBLIC_URL}/reset-password`);

    const unset = await signUp(ctx, 'member');
    await ctx.api
      .post('/api/auth/password-reset/request')
      .set('Accept-Language', 'de-AT,de;q=0.9')
      .send({ email: unset.email })
      .expect(200);
    expect((await nextMailTo(unset.email, 0)).subject).toBe(
      'Setze dein Task-Manager-Passwort zurück',
    );
    await ctx.api.post('/api/auth/password-reset/request').send({ email: unset.email }).expect(200);
    expect((await nextMailTo(unset.email, 1)).subject).toBe('Reset your Task Manager password');
  });

  it('tells of a password change in the person’s language', async () => {
    const german = await signUp(ctx, 'member', { name: 'Ines' });
    await setLanguage(german, 'de').expect(200);
    await ctx.api
      .put('/api/auth/profile')
      .set(german.auth)
      .send({ currentPassword: german.password, newPassword: 'ein ganz neues langes Passwort 7' })
      .expect(200);
    const notice = await nextMailTo(german.email, 0);
    expect(notice.subject).toBe('Das Passwort deines Task-Manager-Kontos wurde geändert');
    expect(notice.text).toContain('Wenn du das warst, ist nichts zu tun.');
  });

  it('tells a person of an e-mail or password change an admin made, naming the admin', async () => {
    const member = await signUp(ctx, 'member', { name: 'Olga' });
    const former = member.email;
    const moved = `moved-${Date.now()}@example.com`;
    await ctx.api.put(`/api/users/${member.id}`).set(admin.auth).send({ email: moved }).expect(200);
    const toFormer = await nextMailTo(former, 0);
    expect(toFormer.subject).toBe('Your Task Manager e-mail address was changed');
    expect(toFormer.text).toContain('Hello Olga,');
    expect(toFormer.text).toContain(
      `Ada Admin, an admin of your team, changed the e-mail address of your Task Manager account from ${former} to ${moved}.`,
    );
    expect(toFormer.text).toContain('If you did not expect this, ask the admins of your team');

    await ctx.api
      .put(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ password: 'a fresh passphrase from the admin 9' })
      .expect(200);
    const toNew = await nextMailTo(moved, 0);
    expect(toNew.subject).toBe('Your Task Manager password was changed');
    expect(toNew.text).toContain(
      'Ada Admin, an admin of your team, set a new password for your Task Manager account',
    );

    // A name change alone tells nothing.
    const before = inbox.mails.length;
    await ctx.api
      .put(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ name: 'Olga B' })
      .expect(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.mails.length).toBe(before);
  });
});
