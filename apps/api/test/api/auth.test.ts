import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { buildUser, signUp, uploadPhoto, type Session } from '../helpers/factories.js';
import { expectNoSecrets, userOf } from '../helpers/expectations.js';
import {
  createTestContext,
  ENGINE,
  INVITE_TOKEN,
  testConfig,
  type TestContext,
} from '../helpers/test-app.js';

/** The signed-in person's own account: a user's fields and their language. */
const OWN_USER_KEYS = [
  '_id',
  'active',
  'createdAt',
  'email',
  'language',
  'name',
  'profileImageUrl',
  'role',
  'updatedAt',
];
const SESSION_KEYS = [...OWN_USER_KEYS, 'token'].sort();
const notAuthorized = { message: apiMessages.notAuthorized, code: 'unauthorized' };

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe(`auth API (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const register = (body: Record<string, unknown>) => ctx.api.post('/api/auth/register').send(body);
  const login = (email: string, password: string) =>
    ctx.api.post('/api/auth/login').send({ email, password });

  /** Nobody is stored under this e-mail, and signing in with it does not succeed. */
  async function expectNoAccount(email: string, password: unknown) {
    const stored = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    expect(stored).toBeUndefined();
    const res = await ctx.api.post('/api/auth/login').send({ email, password });
    expect([400, 401]).toContain(res.status);
    expect(res.body.token).toBeUndefined();
  }

  /** A register call that must fail with 400, the given message, and that message in `errors`. */
  async function expectRegisterRejected(
    body: Record<string, unknown>,
    message: string,
    path: string,
  ) {
    const res = await register(body).expect(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toContainEqual({ path, message });
    for (const error of res.body.errors) {
      expect(Object.keys(error).sort()).toEqual(['message', 'path']);
    }
    if (typeof body.email === 'string') await expectNoAccount(body.email, body.password);
    return res;
  }

  describe('POST /api/auth/register', () => {
    it('creates a member and answers 201 with the user fields and a token, never a password', async () => {
      const photo = await uploadPhoto(ctx);
      const body = buildUser({ profileImageUrl: photo });
      const res = await register(body).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(SESSION_KEYS);
      expect(res.body).toMatchObject({
        name: body.name,
        email: body.email,
        role: 'member',
        profileImageUrl: photo,
      });
      expect(typeof res.body._id).toBe('string');
      expect(res.body._id.length).toBeGreaterThan(0);
      expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
      expectNoSecrets(res.body);

      const decoded = jwt.decode(res.body.token, { complete: true });
      expect(decoded?.header.alg).toBe('HS256');
      expect(decoded?.payload).toMatchObject({ sub: res.body._id, ver: 0 });
    });

    it('returns a token that works on GET /api/auth/profile', async () => {
      const body = buildUser();
      const res = await register(body).expect(201);
      const profile = await ctx.api
        .get('/api/auth/profile')
        .set(bearer(res.body.token))
        .expect(200);
      expect(profile.body).toMatchObject({ _id: res.body._id, email: body.email, role: 'member' });
    });

    it('makes an admin only with the right invite token', async () => {
      const res = await register(buildUser({ adminInviteToken: INVITE_TOKEN })).expect(201);
      expect(res.body.role).toBe('admin');
      // Surrounding blanks are ignored, as a pasted code often has them.
      const padded = await register(buildUser({ adminInviteToken: ` ${INVITE_TOKEN} ` })).expect(
        201,
      );
      expect(padded.body.role).toBe('admin');
      // The admin can use an admin-only endpoint.
      await ctx.api.get('/api/users').set(bearer(res.body.token)).expect(200);
    });

    it('makes a member when no invite token is given (absent, empty or null)', async () => {
      for (const adminInviteToken of [undefined, '', '   ', null]) {
        const res = await register(buildUser({ adminInviteToken })).expect(201);
        expect(res.body.role).toBe('member');
        const list = await ctx.api.get('/api/users').set(bearer(res.body.token)).expect(403);
        expect(list.body).toEqual({ message: apiMessages.adminOnly, code: expect.any(String) });
      }
    });

    it('ignores a role sent in the body: only the invite token makes an admin', async () => {
      const res = await register(buildUser({ role: 'admin' })).expect(201);
      expect(res.body.role).toBe('member');
      await ctx.api.get('/api/users').set(bearer(res.body.token)).expect(403);
    });

    it('lets only one of two simultaneous sign-ups with one e-mail through', async () => {
      const body = buildUser();
      const results = await Promise.all([
        register(body),
        register({ ...body, email: body.email.toUpperCase(), password: 'another-password' }),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
      expect(results.find((res) => res.status === 409)?.body).toEqual({
        message: apiMessages.userExists,
        code: expect.any(String),
      });
      const rows = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', body.email)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('refuses a wrong invite token with 400 and creates no account', async () => {
      for (const adminInviteToken of ['000000', `${INVITE_TOKEN}0`, 'x'.repeat(64)]) {
        const body = buildUser({ adminInviteToken });
        const res = await register(body).expect(400);
        expect(res.body).toEqual({
          message: apiMessages.invalidInviteToken,
          errors: [{ path: 'adminInviteToken', message: apiMessages.invalidInviteToken }],
          code: expect.any(String),
        });
        // No account: login fails, and the e-mail is still free.
        const failed = await login(body.email, body.password).expect(401);
        expect(failed.body).toEqual({
          message: apiMessages.invalidCredentials,
          code: expect.any(String),
        });
        const retry = await register({ ...body, adminInviteToken: undefined }).expect(201);
        expect(retry.body.role).toBe('member');
      }
    });

    it('refuses an over-long invite token with the format message', async () => {
      await expectRegisterRejected(
        buildUser({ adminInviteToken: '4'.repeat(65) }),
        validationMessages.inviteTokenFormat,
        'adminInviteToken',
      );
    });

    it('trims and lower-cases the e-mail', async () => {
      const body = buildUser();
      const res = await register({ ...body, email: `  ${body.email.toUpperCase()}  ` }).expect(201);
      expect(res.body.email).toBe(body.email);
      await login(body.email, body.password).expect(200);
    });

    it('refuses a taken e-mail with 409, whatever its case', async () => {
      const body = buildUser();
      await register(body).expect(201);
      for (const email of [body.email, body.email.toUpperCase(), ` ${body.email} `]) {
        const res = await register({ ...buildUser(), email }).expect(409);
        expect(res.body).toEqual({ message: apiMessages.userExists, code: expect.any(String) });
      }
      // The first account keeps its password.
      await login(body.email, body.password).expect(200);
    });

    it('trims the name and refuses a blank or missing one', async () => {
      const res = await register(buildUser({ name: '  Ada Lovelace  ' })).expect(201);
      expect(res.body.name).toBe('Ada Lovelace');
      for (const name of ['', '   ', undefined, 42]) {
        await expectRegisterRejected(
          buildUser({ name }),
          validationMessages.invalidFullName,
          'name',
        );
      }
      await expectRegisterRejected(
        buildUser({ name: 'n'.repeat(101) }),
        validationMessages.nameTooLong,
        'name',
      );
    });

    it('refuses an invalid e-mail', async () => {
      for (const email of [
        'not-an-email',
        'a b@example.com',
        'ada@example',
        '@example.com',
        '',
        undefined,
      ]) {
        await expectRegisterRejected(
          buildUser({ email }),
          validationMessages.invalidEmail,
          'email',
        );
      }
    });

    it('requires a password of 8 to 128 characters', async () => {
      await expectRegisterRejected(
        buildUser({ password: 'a'.repeat(7) }),
        validationMessages.passwordTooShort,
        'password',
      );
      await expectRegisterRejected(
        buildUser({ password: 'a'.repeat(129) }),
        validationMessages.passwordTooLong,
        'password',
      );
      await expectRegisterRejected(
        buildUser({ password: '' }),
        validationMessages.passwordRequired,
        'password',
      );
      await expectRegisterRejected(
        buildUser({ password: undefined }),
        validationMessages.passwordRequired,
        'password',
      );
      const long = 'Correct horse battery staple 42! '.repeat(4).slice(0, 128);
      for (const password of ['Zq8#mK2p', long]) {
        const body = buildUser({ password });
        await register(body).expect(201);
        await login(body.email, password).expect(200);
      }
    });

    it("counts every character of a long password, beyond bcrypt's 72 bytes", async () => {
      for (const [prefix, tailA, tailB] of [
        ['a'.repeat(72), 'first-tail', 'other-tail'],
        // 20 four-byte characters are 80 bytes but only 20 characters.
        ['\u{1F600}'.repeat(19), '\u{1F601}', '\u{1F602}'],
      ] as const) {
        const body = buildUser({ password: prefix + tailA });
        await register(body).expect(201);
        await login(body.email, prefix + tailA).expect(200);
        const res = await login(body.email, prefix + tailB).expect(401);
        expect(res.body).toEqual({
          message: apiMessages.invalidCredentials,
          code: expect.any(String),
        });
        await login(body.email, prefix).expect(401);
      }
    });

    it('lists every invalid field in `errors`, the first one as the message', async () => {
      const res = await register({ name: ' ', email: 'nope', password: 'short' }).expect(400);
      expect(res.body.message).toBe(validationMessages.invalidFullName);
      expect(res.body.errors).toEqual([
        { path: 'name', message: validationMessages.invalidFullName },
        { path: 'email', message: validationMessages.invalidEmail },
        { path: 'password', message: validationMessages.passwordTooShort },
      ]);
    });

    it('accepts only a photo uploaded to this server; empty means none', async () => {
      const photo = await uploadPhoto(ctx);
      for (const profileImageUrl of [
        'javascript:alert(1)',
        'data:image/png;base64,AAAA',
        'ftp://example.com/me.png',
        'example.com/me.png',
        'https://',
        'http://example.com/a.png',
        `https://example.com${photo}`,
        `//example.com${photo}`,
        42,
      ]) {
        await expectRegisterRejected(
          buildUser({ profileImageUrl }),
          validationMessages.invalidImageUrl,
          'profileImageUrl',
        );
      }
      const own = await register(buildUser({ profileImageUrl: photo })).expect(201);
      expect(own.body.profileImageUrl).toBe(photo);
      for (const profileImageUrl of ['', null, undefined]) {
        const res = await register(buildUser({ profileImageUrl })).expect(201);
        expect(res.body.profileImageUrl).toBeNull();
      }
    });

    it('answers malformed JSON with 400 and a JSON message', async () => {
      const res = await ctx.api
        .post('/api/auth/register')
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expect(res.body).toEqual({ message: apiMessages.malformedJson, code: expect.any(String) });
    });
  });

  describe('POST /api/auth/login', () => {
    it('answers 200 with the same shape as register', async () => {
      const account = await signUp(ctx, 'member', { profileImageUrl: await uploadPhoto(ctx) });
      const res = await login(account.email, account.password).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(SESSION_KEYS);
      const { token, ...user } = res.body;
      const registered = userOf(account.user);
      expect(user).toEqual(registered);
      expectNoSecrets(res.body);
      const profile = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(200);
      expect(profile.body._id).toBe(account.id);
    });

    it('gives the role of an admin at login', async () => {
      const res = await login(admin.email, admin.password).expect(200);
      expect(res.body.role).toBe('admin');
    });

    it('gives the identical 401 for a wrong password and an unknown e-mail', async () => {
      const account = await signUp(ctx);
      const wrongPassword = await login(account.email, `${account.password}x`).expect(401);
      const unknownEmail = await login(`nobody-${account.email}`, account.password).expect(401);
      expect(wrongPassword.body).toEqual({
        message: apiMessages.invalidCredentials,
        code: expect.any(String),
      });
      expect(unknownEmail.body).toEqual(wrongPassword.body);
      expect(unknownEmail.headers['content-type']).toBe(wrongPassword.headers['content-type']);
    });

    it('treats the e-mail case-insensitively and ignores surrounding blanks', async () => {
      const account = await signUp(ctx);
      const res = await login(`  ${account.email.toUpperCase()} `, account.password).expect(200);
      expect(res.body._id).toBe(account.id);
    });

    it('does not trim or fold the password', async () => {
      const account = await signUp(ctx);
      await login(account.email, ` ${account.password}`).expect(401);
      await login(account.email, account.password.toUpperCase()).expect(401);
    });

    it('validates the e-mail and requires a password', async () => {
      const invalid = await login('not-an-email', 'whatever-password').expect(400);
      expect(invalid.body.message).toBe(validationMessages.invalidEmail);
      expect(invalid.body.errors).toEqual([
        { path: 'email', message: validationMessages.invalidEmail },
      ]);
      const empty = await login(admin.email, '').expect(400);
      expect(empty.body.message).toBe(validationMessages.passwordRequired);
      expect(empty.body.errors).toEqual([
        { path: 'password', message: validationMessages.passwordRequired },
      ]);
      const missing = await ctx.api.post('/api/auth/login').send({}).expect(400);
      expect(missing.body.message).toBe(validationMessages.invalidEmail);
    });

    it('accepts a trailing slash', async () => {
      const res = await ctx.api
        .post('/api/auth/login/')
        .send({ email: admin.email, password: admin.password })
        .expect(200);
      expect(res.body._id).toBe(admin.id);
      const registered = await ctx.api.post('/api/auth/register/').send(buildUser()).expect(201);
      expect(registered.body.role).toBe('member');
    });
  });

  describe('GET /api/auth/profile', () => {
    it('answers the current user without a token or password', async () => {
      const account = await signUp(ctx, 'member', { name: 'Grace Hopper' });
      const res = await ctx.api.get('/api/auth/profile').set(account.auth).expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...OWN_USER_KEYS].sort());
      const user = userOf(account.user);
      expect(res.body).toEqual(user);
      expectNoSecrets(res.body);
      const adminProfile = await ctx.api.get('/api/auth/profile/').set(admin.auth).expect(200);
      expect(adminProfile.body).toMatchObject({ _id: admin.id, role: 'admin' });
    });

    it('accepts a token it signed itself with the right claims (control for the cases below)', async () => {
      const account = await signUp(ctx);
      const token = jwt.sign({ sub: account.id, ver: 0 }, testConfig.jwtSecret, {
        algorithm: 'HS256',
        expiresIn: 60,
        jwtid: 'control',
      });
      const res = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(200);
      expect(res.body._id).toBe(account.id);
    });

    it('refuses a missing, malformed or garbage token with 401', async () => {
      const account = await signUp(ctx);
      const headers: Array<Record<string, string>> = [
        {},
        { Authorization: '' },
        { Authorization: 'Bearer' },
        { Authorization: 'Bearer garbage' },
        { Authorization: 'Bearer a.b.c' },
        { Authorization: account.token }, // no "Bearer" scheme
        { Authorization: `Basic ${account.token}` },
        { Authorization: `Bearer ${account.token}x` }, // tampered signature
      ];
      for (const header of headers) {
        const res = await ctx.api.get('/api/auth/profile').set(header).expect(401);
        expect(res.body).toEqual(notAuthorized);
      }
    });

    it('refuses a token signed with another secret', async () => {
      const account = await signUp(ctx);
      const token = jwt.sign({ sub: account.id, ver: 0 }, `${testConfig.jwtSecret}-other`, {
        algorithm: 'HS256',
        expiresIn: 60,
      });
      const res = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(401);
      expect(res.body).toEqual(notAuthorized);
    });

    it('refuses an expired token', async () => {
      const account = await signUp(ctx);
      const now = Math.floor(Date.now() / 1000);
      const token = jwt.sign(
        { sub: account.id, ver: 0, iat: now - 7200, exp: now - 60 },
        testConfig.jwtSecret,
        { algorithm: 'HS256' },
      );
      const res = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(401);
      expect(res.body).toEqual(notAuthorized);
    });

    it("refuses an unsigned token (alg 'none') and another HMAC algorithm", async () => {
      const account = await signUp(ctx);
      const payload = { sub: account.id, ver: 0, exp: Math.floor(Date.now() / 1000) + 600 };
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
      const hs512 = jwt.sign(payload, testConfig.jwtSecret, { algorithm: 'HS512' });
      for (const token of [unsigned, hs512]) {
        const res = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(401);
        expect(res.body).toEqual(notAuthorized);
      }
    });

    it('refuses a token with a missing or stale version, or without a subject', async () => {
      const account = await signUp(ctx);
      const sign = (claims: object) =>
        jwt.sign(claims, testConfig.jwtSecret, { algorithm: 'HS256', expiresIn: 60, jwtid: 'v' });
      for (const token of [
        sign({ sub: account.id }),
        sign({ sub: account.id, ver: 1 }),
        sign({ sub: account.id, ver: '0' }),
        sign({ ver: 0 }),
        sign({ sub: `${account.id}-nobody`, ver: 0 }),
      ]) {
        const res = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(401);
        expect(res.body).toEqual(notAuthorized);
      }
    });

    it('refuses the token of a deleted user', async () => {
      const account = await signUp(ctx);
      await ctx.api.get('/api/auth/profile').set(account.auth).expect(200);
      await ctx.api.delete(`/api/users/${account.id}`).set(admin.auth).expect(200);
      const res = await ctx.api.get('/api/auth/profile').set(account.auth).expect(401);
      expect(res.body).toEqual(notAuthorized);
    });
  });

  describe('PUT /api/auth/profile', () => {
    const update = (session: Session, body: Record<string, unknown>) =>
      ctx.api.put('/api/auth/profile').set(session.auth).send(body);

    it('requires a valid token', async () => {
      const res = await ctx.api.put('/api/auth/profile').send({ name: 'Nobody' }).expect(401);
      expect(res.body).toEqual(notAuthorized);
    });

    it('changes the name and the profile image, and answers the user with a token', async () => {
      const account = await signUp(ctx);
      const photo = await uploadPhoto(ctx);
      const res = await update(account, {
        name: '  New Name ',
        profileImageUrl: photo,
      }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(SESSION_KEYS);
      expect(res.body).toMatchObject({
        _id: account.id,
        name: 'New Name',
        email: account.email,
        role: 'member',
        profileImageUrl: photo,
      });
      expectNoSecrets(res.body);
      // Stored: the profile shows it, and the old token still works (no password change).
      const profile = await ctx.api.get('/api/auth/profile').set(account.auth).expect(200);
      expect(profile.body).toMatchObject({
        name: 'New Name',
        profileImageUrl: photo,
      });
      await ctx.api.get('/api/auth/profile').set(bearer(res.body.token)).expect(200);
    });

    it('leaves the photo alone when left out, and removes it with null or ""', async () => {
      const photo = await uploadPhoto(ctx);
      const account = await signUp(ctx, 'member', { profileImageUrl: photo });
      const kept = await update(account, { name: 'Still Pictured' }).expect(200);
      expect(kept.body.profileImageUrl).toBe(photo);
      const removed = await update(account, { profileImageUrl: null }).expect(200);
      expect(removed.body.profileImageUrl).toBeNull();
      await update(account, { profileImageUrl: await uploadPhoto(ctx) }).expect(200);
      const cleared = await update(account, { profileImageUrl: '' }).expect(200);
      expect(cleared.body.profileImageUrl).toBeNull();
    });

    it('validates the name and the profile image link', async () => {
      const account = await signUp(ctx);
      const blank = await update(account, { name: '   ' }).expect(400);
      expect(blank.body.message).toBe(validationMessages.invalidFullName);
      expect(blank.body.errors).toContainEqual({
        path: 'name',
        message: validationMessages.invalidFullName,
      });
      const script = await update(account, { profileImageUrl: 'javascript:alert(1)' }).expect(400);
      expect(script.body.message).toBe(validationMessages.invalidImageUrl);
      const profile = await ctx.api.get('/api/auth/profile').set(account.auth).expect(200);
      expect(profile.body.name).toBe(account.user.name);
      expect(profile.body.profileImageUrl).toBeNull();
    });

    it('cannot change the role, nor the e-mail without the current password', async () => {
      const account = await signUp(ctx);
      const res = await update(account, { name: 'Would Be Admin', role: 'admin' }).expect(200);
      expect(res.body.role).toBe('member');
      const noPassword = await update(account, { email: `changed-${account.email}` }).expect(400);
      expect(noPassword.body.errors).toContainEqual({
        path: 'currentPassword',
        message: validationMessages.currentPasswordForEmail,
      });
      const profile = await ctx.api.get('/api/auth/profile').set(account.auth).expect(200);
      expect(profile.body).toMatchObject({
        role: 'member',
        email: account.email,
        name: 'Would Be Admin',
      });
      await ctx.api.get('/api/users').set(account.auth).expect(403);
      await login(`changed-${account.email}`, account.password).expect(401);
    });

    it('requires the current password to set a new one', async () => {
      const account = await signUp(ctx);
      const missing = await update(account, { newPassword: 'brand-new-password' }).expect(400);
      expect(missing.body.message).toBe(validationMessages.currentPasswordRequired);
      expect(missing.body.errors).toEqual([
        { path: 'currentPassword', message: validationMessages.currentPasswordRequired },
      ]);
      const wrong = await update(account, {
        currentPassword: 'not-the-password',
        newPassword: 'brand-new-password',
      }).expect(400);
      expect(wrong.body.message).toBe(apiMessages.wrongCurrentPassword);
      expect(wrong.body.errors).toEqual([
        { path: 'currentPassword', message: apiMessages.wrongCurrentPassword },
      ]);
      // Nothing changed: the old password and token still work.
      await login(account.email, account.password).expect(200);
      await login(account.email, 'brand-new-password').expect(401);
      await ctx.api.get('/api/auth/profile').set(account.auth).expect(200);
    });

    it('applies the password rules to the new password', async () => {
      const account = await signUp(ctx);
      const short = await update(account, {
        currentPassword: account.password,
        newPassword: 'short',
      }).expect(400);
      expect(short.body.message).toBe(validationMessages.passwordTooShort);
      const long = await update(account, {
        currentPassword: account.password,
        newPassword: 'x'.repeat(129),
      }).expect(400);
      expect(long.body.message).toBe(validationMessages.passwordTooLong);
      await login(account.email, account.password).expect(200);
    });

    it('changes the password: old fails, new works, old tokens end, the answer has a fresh token', async () => {
      const account = await signUp(ctx);
      const otherSession = await login(account.email, account.password).expect(200);
      const res = await update(account, {
        currentPassword: account.password,
        newPassword: 'brand-new-password',
      }).expect(200);
      expect(res.body._id).toBe(account.id);
      expectNoSecrets(res.body);

      const oldLogin = await login(account.email, account.password).expect(401);
      expect(oldLogin.body).toEqual({
        message: apiMessages.invalidCredentials,
        code: expect.any(String),
      });
      await login(account.email, 'brand-new-password').expect(200);

      // Every token issued before the change is refused; the fresh one works.
      for (const token of [account.token, otherSession.body.token]) {
        const refused = await ctx.api.get('/api/auth/profile').set(bearer(token)).expect(401);
        expect(refused.body).toEqual(notAuthorized);
      }
      const fresh = await ctx.api.get('/api/auth/profile').set(bearer(res.body.token)).expect(200);
      expect(fresh.body._id).toBe(account.id);
      expect(jwt.decode(res.body.token)).toMatchObject({ sub: account.id, ver: 1 });
    });

    it('accepts a trailing slash', async () => {
      const account = await signUp(ctx);
      const res = await ctx.api
        .put('/api/auth/profile/')
        .set(account.auth)
        .send({ name: 'Slash Name' })
        .expect(200);
      expect(res.body.name).toBe('Slash Name');
    });
  });
});
