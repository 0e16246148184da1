import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { buildUser, createTask, signUp, uploadPhoto, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, INVITE_TOKEN, type TestContext } from '../helpers/test-app.js';

/**
 * Requests whose shape is wrong as a whole (an empty update, a body that is not an object, a
 * field of the wrong JSON type) get a clear 400 and change nothing.
 */
describe(`request shapes (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let taskId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    taskId = (await createTask(ctx, admin, [member.id]))._id;
  });
  afterAll(() => ctx?.close());

  describe('an update that sends nothing to change is 400 and changes nothing', () => {
    const nothing = { message: validationMessages.nothingToUpdate, code: 'bad_request' };

    it('PUT /api/auth/profile', async () => {
      const before = await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
      for (const body of [{}, { currentPassword: member.password }, { unknownField: 'x' }]) {
        const res = await ctx.api.put('/api/auth/profile').set(member.auth).send(body).expect(400);
        expect(res.body).toMatchObject(nothing);
      }
      const after = await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('PUT /api/users/:id', async () => {
      const before = await ctx.api.get(`/api/users/${member.id}`).set(admin.auth).expect(200);
      const res = await ctx.api.put(`/api/users/${member.id}`).set(admin.auth).send({}).expect(400);
      expect(res.body).toMatchObject(nothing);
      const after = await ctx.api.get(`/api/users/${member.id}`).set(admin.auth).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('PUT /api/tasks/:id', async () => {
      const before = await ctx.api.get(`/api/tasks/${taskId}`).set(admin.auth).expect(200);
      const res = await ctx.api.put(`/api/tasks/${taskId}`).set(admin.auth).send({}).expect(400);
      expect(res.body).toMatchObject(nothing);
      const after = await ctx.api.get(`/api/tasks/${taskId}`).set(admin.auth).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('null counts as a change: it clears the profile photo', async () => {
      const withPhoto = await signUp(ctx, 'member', { profileImageUrl: await uploadPhoto(ctx) });
      const res = await ctx.api
        .put('/api/auth/profile')
        .set(withPhoto.auth)
        .send({ profileImageUrl: null })
        .expect(200);
      expect(res.body.profileImageUrl).toBeNull();
    });
  });

  describe('a body that is not a JSON object is 400', () => {
    const cases: Array<[string, string, () => Record<string, string>]> = [
      ['post', '/api/auth/register', () => ({})],
      ['post', '/api/auth/login', () => ({})],
      ['put', '/api/auth/profile', () => member.auth],
      ['post', '/api/users', () => admin.auth],
      ['post', '/api/tasks', () => admin.auth],
      ['put', '/api/tasks/:id/todo', () => member.auth],
      ['put', '/api/tasks/:id/status', () => member.auth],
    ];

    it.each(cases)('%s %s with an array body', async (method, path, headers) => {
      const url = path.replace(':id', taskId);
      const req = method === 'post' ? ctx.api.post(url) : ctx.api.put(url);
      const res = await req
        .set(headers())
        .send([{ name: 'x' }])
        .expect(400);
      expect(res.body).toEqual({ message: apiMessages.bodyNotObject, code: expect.any(String) });
    });

    it('a JSON string or number at the top level is rejected as malformed', async () => {
      for (const raw of ['"text"', '42', 'true']) {
        const res = await ctx.api
          .post('/api/auth/login')
          .set('Content-Type', 'application/json')
          .send(raw)
          .expect(400);
        expect(res.body.message).toEqual(expect.any(String));
        expect(res.body).not.toHaveProperty('stack');
      }
    });
  });

  describe('the admin invite token may be sent as a JSON number', () => {
    it('the right code as a number makes an admin', async () => {
      const res = await ctx.api
        .post('/api/auth/register')
        .send(buildUser({ adminInviteToken: Number(INVITE_TOKEN) }))
        .expect(201);
      expect(res.body.role).toBe('admin');
    });

    it('a wrong code as a number is 400 and creates no account', async () => {
      const body = buildUser({ adminInviteToken: 111111 });
      const res = await ctx.api.post('/api/auth/register').send(body).expect(400);
      expect(res.body).toMatchObject({ message: apiMessages.invalidInviteToken });
      await ctx.api
        .post('/api/auth/login')
        .send({ email: body.email, password: body.password })
        .expect(401);
    });

    it('a token of another JSON type is 400 with the format message', async () => {
      for (const adminInviteToken of [true, { code: INVITE_TOKEN }, [INVITE_TOKEN], 4.2]) {
        const res = await ctx.api
          .post('/api/auth/register')
          .send(buildUser({ adminInviteToken }))
          .expect(400);
        expect(res.body).toMatchObject({ message: validationMessages.inviteTokenFormat });
      }
    });
  });
});

describe(`ids in the path (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx?.close());

  const oddIds = ['%00', 'not-a-uuid', "1'%20OR%20'1'='1", '00000000-0000-0000-0000-00000000000g'];

  it.each([
    ['get', '/api/tasks/:id', apiMessages.taskNotFound],
    ['put', '/api/tasks/:id/status', apiMessages.taskNotFound],
    ['delete', '/api/tasks/:id', apiMessages.taskNotFound],
    ['get', '/api/users/:id', apiMessages.userNotFound],
    ['delete', '/api/users/:id', apiMessages.userNotFound],
    ['get', '/api/images/:id', apiMessages.imageNotFound],
  ] as const)(
    '%s %s with an id that is no UUID is 404, never 500',
    async (method, path, message) => {
      for (const id of oddIds) {
        const url = path.replace(':id', id);
        const req =
          method === 'get'
            ? ctx.api.get(url)
            : method === 'put'
              ? ctx.api.put(url)
              : ctx.api.delete(url);
        const res = await req.set(admin.auth).send({ status: 'Completed' });
        expect({ id, status: res.status, body: res.body }).toEqual({
          id,
          status: 404,
          body: { message, code: 'not_found' },
        });
      }
    },
  );

  it('a path with broken percent-encoding is 400 with a clear message', async () => {
    for (const url of ['/api/tasks/%E0%A4%A', '/api/users/%', '/api/images/%ZZ']) {
      const res = await ctx.api.get(url).set(admin.auth);
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 400,
        body: { message: apiMessages.malformedUrl, code: 'bad_request' },
      });
    }
  });

  it('a member asking for another user with an odd id is still refused as a member', async () => {
    const member = await signUp(ctx, 'member');
    const res = await ctx.api.get('/api/users/not-a-uuid').set(member.auth).expect(403);
    expect(res.body).toEqual({ message: apiMessages.adminOnly, code: expect.any(String) });
  });
});
