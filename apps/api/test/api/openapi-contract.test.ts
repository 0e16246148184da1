import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Response, Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import {
  buildTask,
  buildUser,
  createTask,
  signUp,
  uploadPhoto,
  type Session,
} from '../helpers/factories.js';
import { createContractChecker, operationsOf, type OpenApiDoc } from '../helpers/openapi.js';
import { besideBusyHashing } from '../helpers/password-work.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * The contract: real requests to every documented operation, one for each status it documents,
 * and every answer checked against the document (status listed, media type listed, JSON body
 * valid for the schema given for both).
 */

interface Fixtures {
  ctx: TestContext;
  admin: Session;
  /** The member `task` is assigned to. */
  member: Session;
  /** A member with no task. */
  outsider: Session;
  task: Task;
  png: Buffer;
  imageId: string;
}

type Send = (fx: Fixtures) => Test | Promise<Response>;
/** operationId → status → the request that must produce it. */
type Cases = Record<string, Record<number, Send>>;

const NO_ID = () => randomUUID();
/** Over express.json's 1 MB limit. */
const HUGE_BODY = { title: 'x'.repeat(1_100_000) };

/** A fresh task for a request that changes or deletes it. */
const freshTask = (fx: Fixtures, overrides = {}) =>
  createTask(fx.ctx, fx.admin, [fx.member.id], overrides);

const CASES: Cases = {
  register: {
    201: async (fx) =>
      fx.ctx.api
        .post('/api/auth/register')
        .send(buildUser({ profileImageUrl: await uploadPhoto(fx.ctx) })),
    400: (fx) => fx.ctx.api.post('/api/auth/register').send(buildUser({ email: 'nope' })),
    409: (fx) => fx.ctx.api.post('/api/auth/register').send(buildUser({ email: fx.member.email })),
    413: (fx) => fx.ctx.api.post('/api/auth/register').send(HUGE_BODY),
  },
  login: {
    200: (fx) =>
      fx.ctx.api
        .post('/api/auth/login')
        .send({ email: fx.member.email, password: fx.member.password }),
    400: (fx) => fx.ctx.api.post('/api/auth/login').send({ email: fx.member.email }),
    401: (fx) =>
      fx.ctx.api.post('/api/auth/login').send({ email: fx.member.email, password: 'wrong-one' }),
    413: (fx) => fx.ctx.api.post('/api/auth/login').send(HUGE_BODY),
  },
  logout: {
    200: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api.post('/api/auth/logout').set(user.auth);
    },
    401: (fx) => fx.ctx.api.post('/api/auth/logout'),
  },
  getProfile: {
    200: (fx) => fx.ctx.api.get('/api/auth/profile').set(fx.member.auth),
    401: (fx) => fx.ctx.api.get('/api/auth/profile'),
  },
  updateProfile: {
    200: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api
        .put('/api/auth/profile')
        .set(user.auth)
        .send({ name: 'New Name', currentPassword: user.password, newPassword: 'another-secret' });
    },
    400: (fx) => fx.ctx.api.put('/api/auth/profile').set(fx.member.auth).send({}),
    401: (fx) => fx.ctx.api.put('/api/auth/profile').send({ name: 'Nobody' }),
    413: (fx) => fx.ctx.api.put('/api/auth/profile').set(fx.member.auth).send(HUGE_BODY),
  },
  uploadImage: {
    200: (fx) => fx.ctx.api.post('/api/auth/upload-image').attach('image', fx.png, 'pixel.png'),
    400: (fx) =>
      fx.ctx.api
        .post('/api/auth/upload-image')
        .attach('image', Buffer.from('not an image'), 'notes.png'),
    413: (fx) =>
      fx.ctx.api
        .post('/api/auth/upload-image')
        .attach('image', Buffer.alloc(5 * 1024 * 1024 + 1), 'big.png'),
  },
  getImage: {
    200: (fx) => fx.ctx.api.get(`/api/images/${fx.imageId}`),
    404: (fx) => fx.ctx.api.get(`/api/images/${NO_ID()}`),
  },
  listUsers: {
    // Two members, one per page: the answer carries X-Next-Cursor.
    200: (fx) => fx.ctx.api.get('/api/users?limit=1').set(fx.admin.auth),
    400: (fx) => fx.ctx.api.get('/api/users?limit=0').set(fx.admin.auth),
    401: (fx) => fx.ctx.api.get('/api/users'),
    403: (fx) => fx.ctx.api.get('/api/users').set(fx.member.auth),
  },
  createUser: {
    201: (fx) => fx.ctx.api.post('/api/users').set(fx.admin.auth).send(buildUser()),
    400: (fx) =>
      fx.ctx.api
        .post('/api/users')
        .set(fx.admin.auth)
        .send(buildUser({ role: 'owner' })),
    401: (fx) => fx.ctx.api.post('/api/users').send(buildUser()),
    403: (fx) => fx.ctx.api.post('/api/users').set(fx.member.auth).send(buildUser()),
    409: (fx) =>
      fx.ctx.api
        .post('/api/users')
        .set(fx.admin.auth)
        .send(buildUser({ email: fx.outsider.email })),
    413: (fx) => fx.ctx.api.post('/api/users').set(fx.admin.auth).send(HUGE_BODY),
  },
  getUser: {
    200: (fx) => fx.ctx.api.get(`/api/users/${fx.member.id}`).set(fx.member.auth),
    401: (fx) => fx.ctx.api.get(`/api/users/${fx.member.id}`),
    403: (fx) => fx.ctx.api.get(`/api/users/${fx.outsider.id}`).set(fx.member.auth),
    404: (fx) => fx.ctx.api.get(`/api/users/${NO_ID()}`).set(fx.admin.auth),
  },
  updateUser: {
    200: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api
        .put(`/api/users/${user.id}`)
        .set(fx.admin.auth)
        .send({ name: 'Renamed', profileImageUrl: await uploadPhoto(fx.ctx) });
    },
    400: (fx) => fx.ctx.api.put(`/api/users/${fx.outsider.id}`).set(fx.admin.auth).send({}),
    401: (fx) => fx.ctx.api.put(`/api/users/${fx.outsider.id}`).send({ name: 'X' }),
    403: (fx) =>
      fx.ctx.api.put(`/api/users/${fx.outsider.id}`).set(fx.member.auth).send({ name: 'X' }),
    404: (fx) => fx.ctx.api.put(`/api/users/${NO_ID()}`).set(fx.admin.auth).send({ name: 'X' }),
    409: (fx) =>
      fx.ctx.api
        .put(`/api/users/${fx.outsider.id}`)
        .set(fx.admin.auth)
        .send({ email: fx.member.email }),
    413: (fx) => fx.ctx.api.put(`/api/users/${fx.outsider.id}`).set(fx.admin.auth).send(HUGE_BODY),
  },
  deleteUser: {
    200: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api.delete(`/api/users/${user.id}`).set(fx.admin.auth);
    },
    401: (fx) => fx.ctx.api.delete(`/api/users/${fx.outsider.id}`),
    403: (fx) => fx.ctx.api.delete(`/api/users/${fx.outsider.id}`).set(fx.member.auth),
    404: (fx) => fx.ctx.api.delete(`/api/users/${NO_ID()}`).set(fx.admin.auth),
    // The only admin may not delete themself.
    409: (fx) => fx.ctx.api.delete(`/api/users/${fx.admin.id}`).set(fx.admin.auth),
  },
  listTasks: {
    200: (fx) => fx.ctx.api.get('/api/tasks').set(fx.member.auth),
    400: (fx) => fx.ctx.api.get('/api/tasks?status=Done').set(fx.member.auth),
    401: (fx) => fx.ctx.api.get('/api/tasks'),
  },
  createTask: {
    201: (fx) =>
      fx.ctx.api
        .post('/api/tasks')
        .set(fx.admin.auth)
        .send(buildTask([fx.member.id, fx.outsider.id])),
    400: (fx) => fx.ctx.api.post('/api/tasks').set(fx.admin.auth).send({}),
    401: (fx) => fx.ctx.api.post('/api/tasks').send(buildTask([fx.member.id])),
    403: (fx) =>
      fx.ctx.api
        .post('/api/tasks')
        .set(fx.member.auth)
        .send(buildTask([fx.member.id])),
    413: (fx) => fx.ctx.api.post('/api/tasks').set(fx.admin.auth).send(HUGE_BODY),
  },
  getTask: {
    200: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}`).set(fx.member.auth),
    401: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}`),
    // Not assigned: the same 404 as for an unknown id.
    404: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}`).set(fx.outsider.auth),
  },
  updateTask: {
    200: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(fx.admin.auth)
        .send({ title: 'Retitled', attachments: ['example.com/a', 'https://example.com/b'] });
    },
    400: (fx) => fx.ctx.api.put(`/api/tasks/${fx.task._id}`).set(fx.admin.auth).send({}),
    401: (fx) => fx.ctx.api.put(`/api/tasks/${fx.task._id}`).send({ title: 'X' }),
    403: (fx) =>
      fx.ctx.api.put(`/api/tasks/${fx.task._id}`).set(fx.member.auth).send({ title: 'X' }),
    404: (fx) => fx.ctx.api.put(`/api/tasks/${NO_ID()}`).set(fx.admin.auth).send({ title: 'X' }),
    413: (fx) => fx.ctx.api.put(`/api/tasks/${fx.task._id}`).set(fx.admin.auth).send(HUGE_BODY),
  },
  deleteTask: {
    200: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api.delete(`/api/tasks/${task._id}`).set(fx.admin.auth);
    },
    401: (fx) => fx.ctx.api.delete(`/api/tasks/${fx.task._id}`),
    403: (fx) => fx.ctx.api.delete(`/api/tasks/${fx.task._id}`).set(fx.member.auth),
    404: (fx) => fx.ctx.api.delete(`/api/tasks/${NO_ID()}`).set(fx.admin.auth),
  },
  updateChecklist: {
    200: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api
        .put(`/api/tasks/${task._id}/todo`)
        .set(fx.member.auth)
        .send({
          todoChecklist: [
            { text: 'Draft', completed: true },
            { text: 'Review', completed: false },
          ],
        });
    },
    400: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo`)
        .set(fx.admin.auth)
        .send({ todoChecklist: [] }),
    401: (fx) =>
      fx.ctx.api.put(`/api/tasks/${fx.task._id}/todo`).send({ todoChecklist: [{ text: 'A' }] }),
    404: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo`)
        .set(fx.outsider.auth)
        .send({ todoChecklist: [{ text: 'A' }] }),
    413: (fx) =>
      fx.ctx.api.put(`/api/tasks/${fx.task._id}/todo`).set(fx.admin.auth).send(HUGE_BODY),
  },
  updateChecklistItem: {
    200: async (fx) => {
      const task = await freshTask(fx);
      const item = task.todoChecklist[0]!;
      return fx.ctx.api
        .patch(`/api/tasks/${task._id}/todo/${item._id}`)
        .set(fx.member.auth)
        .send({ completed: true });
    },
    400: (fx) =>
      fx.ctx.api
        .patch(`/api/tasks/${fx.task._id}/todo/${fx.task.todoChecklist[0]!._id}`)
        .set(fx.member.auth)
        .send({ completed: 'yes' }),
    401: (fx) =>
      fx.ctx.api
        .patch(`/api/tasks/${fx.task._id}/todo/${fx.task.todoChecklist[0]!._id}`)
        .send({ completed: true }),
    404: (fx) =>
      fx.ctx.api
        .patch(`/api/tasks/${fx.task._id}/todo/${NO_ID()}`)
        .set(fx.member.auth)
        .send({ completed: true }),
    413: (fx) =>
      fx.ctx.api
        .patch(`/api/tasks/${fx.task._id}/todo/${fx.task.todoChecklist[0]!._id}`)
        .set(fx.member.auth)
        .send(HUGE_BODY),
  },
  updateTaskStatus: {
    200: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api
        .put(`/api/tasks/${task._id}/status`)
        .set(fx.member.auth)
        .send({ status: 'Completed' });
    },
    400: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/status`)
        .set(fx.member.auth)
        .send({ status: 'Done' }),
    401: (fx) => fx.ctx.api.put(`/api/tasks/${fx.task._id}/status`).send({ status: 'Pending' }),
    404: (fx) =>
      fx.ctx.api.put(`/api/tasks/${NO_ID()}/status`).set(fx.admin.auth).send({ status: 'Pending' }),
    413: (fx) =>
      fx.ctx.api.put(`/api/tasks/${fx.task._id}/status`).set(fx.member.auth).send(HUGE_BODY),
  },
  getDashboard: {
    200: (fx) => fx.ctx.api.get('/api/tasks/dashboard-data').set(fx.admin.auth),
    401: (fx) => fx.ctx.api.get('/api/tasks/dashboard-data'),
    403: (fx) => fx.ctx.api.get('/api/tasks/dashboard-data').set(fx.member.auth),
  },
  getMyDashboard: {
    200: (fx) => fx.ctx.api.get('/api/tasks/user-dashboard-data').set(fx.member.auth),
    401: (fx) => fx.ctx.api.get('/api/tasks/user-dashboard-data'),
  },
  exportTasksReport: {
    200: (fx) => fx.ctx.api.get('/api/reports/export/tasks').set(fx.admin.auth),
    401: (fx) => fx.ctx.api.get('/api/reports/export/tasks'),
    403: (fx) => fx.ctx.api.get('/api/reports/export/tasks').set(fx.member.auth),
  },
  exportUsersReport: {
    200: (fx) => fx.ctx.api.get('/api/reports/export/users').set(fx.admin.auth),
    401: (fx) => fx.ctx.api.get('/api/reports/export/users'),
    403: (fx) => fx.ctx.api.get('/api/reports/export/users').set(fx.member.auth),
  },
  getHealth: {
    200: (fx) => fx.ctx.api.get('/api/health'),
  },
  getReadiness: {
    200: (fx) => fx.ctx.api.get('/api/ready'),
  },
  getOpenApiDocument: {
    200: (fx) => fx.ctx.api.get('/api/openapi.json'),
  },
  getApiReference: {
    200: (fx) => fx.ctx.api.get('/api/docs'),
  },
};

/** Statuses that need an app of their own; they are exercised in the blocks further down. */
const ELSEWHERE: Record<string, number[]> = {
  // security-limits.test.ts: the limits, and password work past its queue (503).
  register: [429, 503],
  login: [429, 503],
  updateProfile: [429, 503],
  createUser: [503],
  updateUser: [503],
  uploadImage: [429],
  getReadiness: [503],
};

describe(`the API keeps to its OpenAPI document (${ENGINE})`, () => {
  const fx = {} as Fixtures;
  let doc: OpenApiDoc;
  let checker: ReturnType<typeof createContractChecker>;

  beforeAll(async () => {
    fx.ctx = await createTestContext();
    doc = (await fx.ctx.api.get('/api/openapi.json').expect(200)).body;
    checker = createContractChecker(doc);
    fx.admin = await signUp(fx.ctx, 'admin');
    fx.member = await signUp(fx.ctx, 'member', { profileImageUrl: await uploadPhoto(fx.ctx) });
    fx.outsider = await signUp(fx.ctx, 'member');
    fx.task = await createTask(fx.ctx, fx.admin, [fx.member.id], {
      todoChecklist: [
        { text: 'Draft', completed: true },
        { text: 'Review', completed: false },
      ],
    });
    fx.png = await sharp({
      create: { width: 2, height: 2, channels: 3, background: { r: 200, g: 10, b: 10 } },
    })
      .png()
      .toBuffer();
    const upload = await fx.ctx.api
      .post('/api/auth/upload-image')
      .attach('image', fx.png, 'pixel.png')
      .expect(200);
    fx.imageId = String(upload.body.imageUrl).split('/').pop()!;
  });
  afterAll(() => fx.ctx.close());

  it('has a case for every documented operation, and no case for an undocumented one', () => {
    const ids = operationsOf(doc).map(({ operation }) => operation.operationId);
    expect(Object.keys(CASES).sort()).toEqual([...ids].sort());
  });

  for (const [operationId, byStatus] of Object.entries(CASES)) {
    describe(operationId, () => {
      for (const [status, send] of Object.entries(byStatus)) {
        it(`answers ${status} as documented`, async () => {
          const res = await send(fx);
          expect(res.status, JSON.stringify(res.body)).toBe(Number(status));
          checker.check(res, operationId);
        });
      }
    });
  }

  describe('answers beyond one per status', () => {
    it('a validation error lists every problem in `errors`', async () => {
      const res = await fx.ctx.api
        .post('/api/tasks')
        .set(fx.admin.auth)
        .send({ title: '', assignedTo: 'nobody' });
      expect(res.status).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(1);
      checker.check(res);
    });

    it('malformed JSON is a 400 with a message only', async () => {
      const res = await fx.ctx.api
        .post('/api/auth/login')
        .set('Content-Type', 'application/json')
        .send('{"email": ');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String), code: expect.any(String) });
      checker.check(res);
    });

    it('the task list, filtered and not, for an admin and a member', async () => {
      for (const session of [fx.admin, fx.member, fx.outsider]) {
        for (const query of ['', '?status=Pending', '?status=In%20Progress', '?status=All']) {
          const res = await fx.ctx.api.get(`/api/tasks${query}`).set(session.auth).expect(200);
          checker.check(res);
        }
      }
    });

    it('a task whose creator was deleted has createdBy null', async () => {
      const creator = await signUp(fx.ctx, 'admin');
      const task = await createTask(fx.ctx, creator, [fx.member.id]);
      await fx.ctx.api.delete(`/api/users/${creator.id}`).set(fx.admin.auth).expect(200);
      const res = await fx.ctx.api.get(`/api/tasks/${task._id}`).set(fx.admin.auth).expect(200);
      expect(res.body.createdBy).toBeNull();
      checker.check(res);
    });

    it('users with task counts, and a user with and without a photo', async () => {
      checker.check(await fx.ctx.api.get('/api/users').set(fx.admin.auth).expect(200));
      for (const user of [fx.member, fx.outsider, fx.admin]) {
        const res = await fx.ctx.api.get(`/api/users/${user.id}`).set(fx.admin.auth).expect(200);
        checker.check(res);
      }
    });

    it('the reports answer with the documented spreadsheet type, as attachments', async () => {
      for (const path of ['/api/reports/export/tasks', '/api/reports/export/users']) {
        const res = await fx.ctx.api.get(path).set(fx.admin.auth).expect(200);
        expect(checker.check(res)).toBe(
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
        expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.xlsx"$/);
      }
    });

    it('an image answers with one of the documented image types', async () => {
      const res = await fx.ctx.api.get(`/api/images/${fx.imageId}`).expect(200);
      expect(checker.check(res)).toBe('image/webp');
    });

    it('an undocumented field in an answer would be caught', async () => {
      const res = await fx.ctx.api.get('/api/auth/profile').set(fx.member.auth).expect(200);
      res.body = { ...res.body, passwordHash: 'leaked' };
      let failure: { actual?: unknown } | undefined;
      try {
        checker.check(res);
      } catch (error) {
        failure = error as { actual?: unknown };
      }
      expect(failure?.actual).toMatch(/must NOT have additional properties/);
    });
  });

  describe('statuses that need an app of their own', () => {
    it('answers 429 on sign-up, sign-in and upload once the limit is reached', async () => {
      const limited = await createTestContext({ authRateLimit: 1 });
      try {
        const send = {
          register: () => limited.api.post('/api/auth/register').send(buildUser()),
          login: () =>
            limited.api.post('/api/auth/login').send({ email: 'a@b.co', password: 'whatever' }),
          uploadImage: () =>
            limited.api.post('/api/auth/upload-image').attach('image', fx.png, 'pixel.png'),
        };
        for (const request of Object.values(send)) {
          await request();
          const res = await request();
          expect(res.status).toBe(429);
          expect(res.headers['retry-after']).toBeDefined();
          checker.check(res);
        }
      } finally {
        await limited.close();
      }
    });

    it('answers 429 on the profile once its limit per user is reached', async () => {
      const limited = await createTestContext({ authRateLimit: 1 });
      try {
        const user = await signUp(limited, 'member');
        const update = () =>
          limited.api.put('/api/auth/profile').set(user.auth).send({ name: 'Again' });
        checker.check(await update().expect(200));
        const res = await update().expect(429);
        expect(res.headers['retry-after']).toBeDefined();
        checker.check(res);
      } finally {
        await limited.close();
      }
    });

    it('answers 503 with Retry-After where password work finds no room', async () => {
      const busy = await createTestContext({
        bcryptCost: 12,
        passwordWork: { concurrency: 1, waiting: 0, retryAfterSeconds: 3 },
      });
      try {
        const admin = await signUp(busy, 'admin');
        const member = await signUp(busy, 'member');
        const password = 'A passphrase nobody uses 9';
        const send: Record<string, () => Test> = {
          register: () => busy.api.post('/api/auth/register').send(buildUser()),
          login: () => busy.api.post('/api/auth/login').send({ email: member.email, password }),
          updateProfile: () =>
            busy.api
              .put('/api/auth/profile')
              .set(member.auth)
              .send({ currentPassword: 'wrong-one', newPassword: password }),
          createUser: () => busy.api.post('/api/users').set(admin.auth).send(buildUser()),
          updateUser: () =>
            busy.api.put(`/api/users/${member.id}`).set(admin.auth).send({ password }),
        };
        for (const [operationId, request] of Object.entries(send)) {
          // A sign-in holds the only slot; the request beside it finds no room.
          const res = await besideBusyHashing(
            () =>
              busy.api
                .post('/api/auth/login')
                .send({ email: admin.email, password: admin.password }),
            request,
          );
          expect(res.status, operationId).toBe(503);
          expect(res.headers['retry-after'], operationId).toBe('3');
          expect(checker.check(res), operationId).toBeDefined();
        }
      } finally {
        await busy.close();
      }
    });

    it('answers 503 on readiness when the database is gone', async () => {
      const broken = await createTestContext();
      await broken.close();
      const res = await broken.api.get('/api/ready');
      expect(res.status).toBe(503);
      checker.check(res);
    });
  });

  // Last: every status each operation documents was produced by a real request above.
  it('has produced every documented status of every operation', () => {
    for (const { operation } of operationsOf(doc)) {
      const id = operation.operationId;
      const documented = Object.keys(operation.responses).sort();
      const seen = [...(checker.seen.get(id) ?? [])].sort();
      expect(seen, id).toEqual(documented);
      const planned = [...Object.keys(CASES[id] ?? {}), ...(ELSEWHERE[id] ?? []).map(String)];
      expect(planned.sort(), id).toEqual(documented);
    }
  });
});
