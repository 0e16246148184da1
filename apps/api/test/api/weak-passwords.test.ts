import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationMessages as m } from '@task-manager/shared';
import { buildUser, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * A new password is refused, with the reason, wherever one is set: sign-up, an admin adding or
 * editing a user, and the profile. The minimum stays 8 characters.
 */
describe(`weak passwords (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const WEAK: Array<[string, string]> = [
    ['password', m.passwordCommon],
    ['12345678', m.passwordCommon],
    ['Password1', m.passwordCommon],
    ['qwertyuiop', m.passwordCommon],
    ['        ', m.passwordBlank],
    ['aaaaaaaa', m.passwordOneCharacter],
  ];

  async function expectRefused(
    res: { status: number; body: { message: string; errors?: unknown[] } },
    message: string,
    path: string,
  ) {
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toContainEqual({ path, message });
  }

  it.each(WEAK)('sign-up refuses %j', async (password, message) => {
    const user = buildUser({ password });
    await expectRefused(await ctx.api.post('/api/auth/register').send(user), message, 'password');
    const rows = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .execute();
    expect(rows).toEqual([]);
  });

  it('sign-up refuses the e-mail address or the name as the password', async () => {
    const user = buildUser({ name: 'Grace Hopper Navy' });
    for (const password of [user.email as string, 'grace hopper navy']) {
      await expectRefused(
        await ctx.api.post('/api/auth/register').send({ ...user, password }),
        m.passwordLikeAccount,
        'password',
      );
    }
  });

  it.each(WEAK)('an admin adding a user is refused %j', async (password, message) => {
    await expectRefused(
      await ctx.api.post('/api/users').set(admin.auth).send(buildUser({ password })),
      message,
      'password',
    );
  });

  it('an admin setting a password equal to the stored e-mail or name is refused', async () => {
    const member = await signUp(ctx, 'member', { name: 'Katherine Johnson' });
    for (const password of [member.email, 'KatherineJohnson', 'password1']) {
      const res = await ctx.api.put(`/api/users/${member.id}`).set(admin.auth).send({ password });
      expect(res.status).toBe(400);
    }
    // The old password still works: nothing was changed.
    await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    await ctx.api
      .put(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ password: 'Orbital mechanics 1962' })
      .expect(200);
  });

  it.each(WEAK)('the profile refuses %j as the new password', async (password, message) => {
    const member = await signUp(ctx);
    await expectRefused(
      await ctx.api
        .put('/api/auth/profile')
        .set(member.auth)
        .send({ currentPassword: member.password, newPassword: password }),
      message,
      'newPassword',
    );
  });

  it('the profile refuses the account’s own e-mail as the new password, and takes a good one', async () => {
    const member = await signUp(ctx);
    await expectRefused(
      await ctx.api
        .put('/api/auth/profile')
        .set(member.auth)
        .send({ currentPassword: member.password, newPassword: member.email.toUpperCase() }),
      m.passwordLikeAccount,
      'newPassword',
    );
    await ctx.api
      .put('/api/auth/profile')
      .set(member.auth)
      .send({ currentPassword: member.password, newPassword: 'Seven long words here' })
      .expect(200);
  });
});
