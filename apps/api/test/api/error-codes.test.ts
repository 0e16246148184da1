import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { buildUser, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * Every error answer carries a stable, machine-readable `code` beside its message (which stays
 * the spec's text, for people): programs branch on the code, never on the words.
 */
describe(`error codes (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  it.each([
    ['no token', () => ctx.api.get('/api/tasks'), 401, 'unauthorized', apiMessages.notAuthorized],
    [
      'a member on an admin route',
      () => ctx.api.get('/api/users').set(member.auth),
      403,
      'forbidden',
      apiMessages.adminOnly,
    ],
    [
      'an unknown task',
      () => ctx.api.get('/api/tasks/00000000-0000-4000-8000-000000000000').set(admin.auth),
      404,
      'not_found',
      apiMessages.taskNotFound,
    ],
    [
      'an unknown path',
      () => ctx.api.get('/api/nothing-here'),
      404,
      'not_found',
      apiMessages.notFound,
    ],
    [
      'a taken e-mail',
      () =>
        ctx.api
          .post('/api/users')
          .set(admin.auth)
          .send(buildUser({ email: member.email })),
      409,
      'conflict',
      apiMessages.userExists,
    ],
    [
      'malformed JSON',
      () =>
        ctx.api
          .post('/api/tasks')
          .set(admin.auth)
          .set('Content-Type', 'application/json')
          .send('{'),
      400,
      'bad_request',
      apiMessages.malformedJson,
    ],
    [
      'a wrong current password',
      () =>
        ctx.api
          .put('/api/auth/profile')
          .set(member.auth)
          .send({ currentPassword: 'not-it-at-all', newPassword: 'A fresh passphrase 7' }),
      400,
      'wrong_current_password',
      apiMessages.wrongCurrentPassword,
    ],
  ])('%s: %i with code', async (_what, send, status, code, message) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toBe(message);
  });

  it('validation errors keep their list of problems beside the code', async () => {
    const res = await ctx.api.post('/api/tasks').set(admin.auth).send({}).expect(400);
    expect(res.body).toEqual({
      message: validationMessages.titleRequired,
      code: 'bad_request',
      errors: expect.arrayContaining([
        { path: 'title', message: validationMessages.titleRequired },
      ]),
    });
  });
});
