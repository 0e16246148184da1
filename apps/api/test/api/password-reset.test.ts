import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { signUp, type Session } from '../helpers/factories.js';
import { resetLinkIn, startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** E-mail set up to go out through `inbox`, with links to https://tasks.example.com. */
const mailThrough = (inbox: SmtpInbox) => ({
  smtpUrl: inbox.url,
  from: 'Task Manager <tasks@example.com>',
  publicUrl: 'https://tasks.example.com',
});

const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;

describe(`password reset, and notices of account changes (${ENGINE})`, () => {
  let inbox: SmtpInbox;
  let ctx: TestContext;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    ctx = await createTestContext({ mail: mailThrough(inbox) });
  });
  afterAll(async () => {
    await ctx.close();
    await inbox.close();
  });

  const login = (email: string, password: string) =>
    ctx.api.post('/api/auth/login').send({ email, password });
  const request = (email: string) =>
    ctx.api.post('/api/auth/password-reset/request').send({ email });
  const confirm = (token: string, password: string) =>
    ctx.api.post('/api/auth/password-reset/confirm').send({ token, password });

  it('says by e-mail is possible', async () => {
    const res = await ctx.api.get('/api/auth/options').expect(200);
    expect(res.body).toEqual({ signupMode: 'open', passwordResetByEmail: true });
  });

  it('end to end: request, mail, confirm, old sessions end, the new password works', async () => {
    const member = await signUp(ctx);
    const other = await login(member.email, member.password).expect(200);
    const res = await request(member.email).expect(200);
    expect(res.body).toEqual({ message: apiMessages.passwordResetRequested });

    const mail = await inbox.waitFor(member.email);
    expect(mail.raw).toMatch(/Subject: Reset your Task Manager password/);
    const link = resetLinkIn(mail.raw);
    expect(link.startsWith('https://tasks.example.com/reset-password?token=')).toBe(true);
    // Valid one hour, and stored only as its hash.
    const stored = await ctx.db
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(stored.expires_at) - Date.parse(stored.created_at)).toBe(3_600_000);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link));

    await confirm(tokenOf(link), 'a fresh passphrase 42').expect(200);
    await ctx.api.get('/api/auth/profile').set(member.auth).expect(401);
    await ctx.api
      .get('/api/auth/profile')
      .set({ Authorization: `Bearer ${other.body.token}` })
      .expect(401);
    await login(member.email, member.password).expect(401);
    await login(member.email, 'a fresh passphrase 42').expect(200);

    // Single use.
    const again = await confirm(tokenOf(link), 'yet another passphrase').expect(400);
    expect(again.body.code).toBe('invalid_reset_token');
  });

  it('answers the same for an unknown address, and sends nothing', async () => {
    const known = await signUp(ctx);
    const a = await request(known.email).expect(200);
    const b = await request('nobody-here@example.com').expect(200);
    expect(b.body).toEqual(a.body);
    await inbox.waitFor(known.email);
    expect(inbox.mails.some((mail) => mail.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('applies the sign-up password rules and refuses unknown tokens', async () => {
    const admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx);
    const link = await ctx.api
      .post(`/api/users/${member.id}/password-reset`)
      .set(admin.auth)
      .expect(200);
    const weak = await confirm(tokenOf(link.body.url), 'password123').expect(400);
    expect(weak.body.errors[0].path).toBe('password');
    const short = await confirm(tokenOf(link.body.url), 'short').expect(400);
    expect(short.body.errors[0].path).toBe('password');
    await confirm('not-a-real-token', 'a fresh passphrase 42').expect(400);
    // The refused attempts did not use the link up.
    await confirm(tokenOf(link.body.url), 'a fresh passphrase 42').expect(200);
  });

  it('limits requests per address', async () => {
    const member = await signUp(ctx);
    for (let i = 0; i < 5; i++) await request(member.email).expect(200);
    const res = await request(member.email).expect(429);
    expect(res.body.code).toBe('too_many_requests');
  });

  // Not a reset, but the same mail: the owner hears of a change of address or password.
  const mailsTo = (address: string) => inbox.mails.filter((mail) => mail.to.includes(address));

  it('tells the former address of a new one, and nothing for a refused change', async () => {
    const member = await signUp(ctx);
    const other = await signUp(ctx);
    const moved = `moved-${member.email}`;
    const put = (body: object) => ctx.api.put('/api/auth/profile').set(member.auth).send(body);
    await put({ email: moved, currentPassword: 'nope' }).expect(400);
    await put({ email: other.email, currentPassword: member.password }).expect(409);
    await put({ email: moved, currentPassword: member.password }).expect(200);
    // Whoever changed it, the owner hears of it where they read their mail until now.
    // (Its text with quoted-printable soft breaks undone.)
    const notice = (await inbox.waitFor(member.email)).raw.replace(/=\r?\n/g, '');
    expect(notice).toMatch(/Subject: Your Task Manager e-mail address was changed/);
    expect(notice).toContain(moved);
    expect(notice).toContain('https://tasks.example.com/login');
    expect(mailsTo(member.email)).toHaveLength(1);
    expect(mailsTo(moved)).toHaveLength(0);
  });

  it("tells the account's address of a new password", async () => {
    const member = await signUp(ctx);
    await ctx.api
      .put('/api/auth/profile')
      .set(member.auth)
      .send({ currentPassword: member.password, newPassword: 'a brand new passphrase' })
      .expect(200);
    const notice = await inbox.waitFor(member.email);
    expect(notice.raw).toMatch(/Subject: Your Task Manager password was changed/);
    expect(mailsTo(member.email)).toHaveLength(1);
  });

  it('sends nothing for a new name', async () => {
    const member = await signUp(ctx);
    await ctx.api.put('/api/auth/profile').set(member.auth).send({ name: 'New Name' }).expect(200);
    // A notice is queued in the request's wake: give it the moment one would take.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queued = await ctx.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', member.email)
      .execute();
    expect(queued).toEqual([]);
  });
});

describe(`an admin's reset link (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  it('is a single-use link valid 24 hours, stored only as its hash', async () => {
    const member = await signUp(ctx);
    const res = await ctx.api
      .post(`/api/users/${member.id}/password-reset`)
      .set(admin.auth)
      .expect(200);
    expect(res.body.url).toMatch(/^\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(res.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const token = tokenOf(res.body.url);
    const rows = await ctx.db.selectFrom('password_resets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    await ctx.api
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: 'handed over passphrase' })
      .expect(200);
    await ctx.api.get('/api/auth/profile').set(member.auth).expect(401);
    await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: 'handed over passphrase' })
      .expect(200);
    await ctx.api
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: 'another passphrase' })
      .expect(400);
  });

  it('refuses an expired link', async () => {
    const member = await signUp(ctx);
    const res = await ctx.api
      .post(`/api/users/${member.id}/password-reset`)
      .set(admin.auth)
      .expect(200);
    await ctx.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', member.id)
      .execute();
    const refused = await ctx.api
      .post('/api/auth/password-reset/confirm')
      .send({ token: tokenOf(res.body.url), password: 'too late passphrase' })
      .expect(400);
    expect(refused.body.code).toBe('invalid_reset_token');
  });

  it('is for admins only, and says e-mail reset is off without SMTP', async () => {
    const member = await signUp(ctx);
    await ctx.api.post(`/api/users/${admin.id}/password-reset`).set(member.auth).expect(403);
    const options = await ctx.api.get('/api/auth/options').expect(200);
    expect(options.body.passwordResetByEmail).toBe(false);
    // The request still answers the same, and sends nothing.
    await ctx.api
      .post('/api/auth/password-reset/request')
      .send({ email: member.email })
      .expect(200);
    expect(await ctx.db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  });

  it('ends every session with "sign out everywhere", this one included', async () => {
    const member = await signUp(ctx);
    const second = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    await ctx.api.post('/api/auth/logout-all').set(member.auth).expect(200);
    await ctx.api.get('/api/auth/profile').set(member.auth).expect(401);
    await ctx.api
      .get('/api/auth/profile')
      .set({ Authorization: `Bearer ${second.body.token}` })
      .expect(401);
  });

  it('changes the e-mail only with the current password, and never to a taken one', async () => {
    const member = await signUp(ctx);
    const other = await signUp(ctx);
    const put = (body: object) => ctx.api.put('/api/auth/profile').set(member.auth).send(body);
    await put({ email: `new-${member.email}` }).expect(400);
    const wrong = await put({ email: `new-${member.email}`, currentPassword: 'nope' }).expect(400);
    expect(wrong.body.code).toBe('wrong_current_password');
    await put({ email: other.email, currentPassword: member.password }).expect(409);
    const ok = await put({ email: `new-${member.email}`, currentPassword: member.password });
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe(`new-${member.email}`);
    await ctx.api
      .post('/api/auth/login')
      .send({ email: `new-${member.email}`, password: member.password })
      .expect(200);
  });

  it('refuses a new password that is the current one', async () => {
    const member = await signUp(ctx);
    const res = await ctx.api
      .put('/api/auth/profile')
      .set(member.auth)
      .send({ currentPassword: member.password, newPassword: member.password })
      .expect(400);
    expect(res.body.message).toBe(validationMessages.newPasswordSame);
    // Nothing changed: this session goes on.
    await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
  });

  it('changing the password ends the other sessions and keeps this one', async () => {
    const member = await signUp(ctx);
    const second = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    const res = await ctx.api
      .put('/api/auth/profile')
      .set(member.auth)
      .send({ currentPassword: member.password, newPassword: 'a brand new passphrase' })
      .expect(200);
    await ctx.api
      .get('/api/auth/profile')
      .set({ Authorization: `Bearer ${res.body.token}` })
      .expect(200);
    await ctx.api
      .get('/api/auth/profile')
      .set({ Authorization: `Bearer ${second.body.token}` })
      .expect(401);
  });
});
