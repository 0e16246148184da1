import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Response, Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Label, Task } from '@task-manager/shared';
import {
  buildTask,
  buildUser,
  createTask,
  signUp,
  uploadPhoto,
  type Session,
} from '../helpers/factories.js';
import { apiEndpoints } from '../../src/endpoints.js';
import type { AnyEndpoint } from '../../src/http/endpoint.js';
import {
  derivedBody,
  derivedQuery,
  fillPath,
  pathKindOf,
  pathParamsOf,
  uploadFieldOf,
} from '../helpers/derived-request.js';
import { untilReady } from '../helpers/event-stream.js';
import { createContractChecker, operationsOf, type OpenApiDoc } from '../helpers/openapi.js';
import { besideBusyHashing } from '../helpers/password-work.js';
import { unsubscribeToken } from '../../src/notifications/unsubscribe-token.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';

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

/** A fresh task (for `assignee`, the shared member by default) for a request that changes it. */
const freshTask = (fx: Fixtures, overrides = {}, assignee = fx.member) =>
  createTask(fx.ctx, fx.admin, [assignee.id], overrides);

/** A fresh label for a request that changes or deletes it. */
const freshLabel = async (fx: Fixtures): Promise<Label> =>
  (
    await fx.ctx.api
      .post('/api/labels')
      .set(fx.admin.auth)
      .send({ name: `Label ${NO_ID()}`, color: '#336699' })
      .expect(201)
  ).body;

/** A fresh comment by `author` on `task` (the shared one by default). */
const newComment = async (
  fx: Fixtures,
  author: Session,
  task = fx.task,
): Promise<{ _id: string }> =>
  (
    await fx.ctx.api
      .post(`/api/tasks/${task._id}/comments`)
      .set(author.auth)
      .send({ body: 'A comment' })
      .expect(201)
  ).body;

/** A fresh file uploaded by `uploader` to `task` (the shared one by default). */
const newFile = async (fx: Fixtures, uploader: Session, task = fx.task): Promise<{ _id: string }> =>
  (
    await fx.ctx.api
      .post(`/api/tasks/${task._id}/files`)
      .set(uploader.auth)
      .attach('file', Buffer.from('bytes'), {
        filename: 'file.bin',
        contentType: 'application/octet-stream',
      })
      .expect(201)
  ).body;

/** The secret in the shared member's calendar address (`/api/calendar/<secret>.ics`). */
async function calendarSecret(fx: Fixtures): Promise<string> {
  const feed = await fx.ctx.api.get('/api/calendar/feed').set(fx.member.auth).expect(200);
  return /\/api\/calendar\/([^/]+)\.ics$/.exec(new URL(String(feed.body.url)).pathname)![1]!;
}

/** A member an admin has deactivated. */
async function deactivatedMember(fx: Fixtures): Promise<Session> {
  const user = await signUp(fx.ctx);
  await fx.ctx.api
    .patch(`/api/users/${user.id}`)
    .set(fx.admin.auth)
    .send({ active: false })
    .expect(200);
  return user;
}

/** The token of a fresh admin-made reset link for a new member. */
async function resetToken(fx: Fixtures): Promise<string> {
  const user = await signUp(fx.ctx);
  const res = await fx.ctx.api
    .post(`/api/users/${user.id}/password-reset`)
    .set(fx.admin.auth)
    .expect(200);
  return new URL(res.body.url as string, 'http://x').searchParams.get('token')!;
}

/** A fresh invitation's id and token. */
async function freshInvite(fx: Fixtures): Promise<{ id: string; token: string }> {
  const res = await fx.ctx.api
    .post('/api/invites')
    .set(fx.admin.auth)
    .send({ role: 'member', expiresInDays: 1 })
    .expect(201);
  return { id: res.body._id as string, token: res.body.token as string };
}

/**
 * The requests written by hand, over the derived ones (derivedCases): the domain errors (400,
 * 409...) and, only where the request derived from the declaration cannot produce it or shows
 * less of the answer, the success status. A new endpoint needs no line here unless its derived
 * success request fails; that test then says so.
 */
const CASES: Cases = {
  register: {
    // With a photo: the answer shows it.
    201: async (fx) =>
      fx.ctx.api
        .post('/api/auth/register')
        .send(buildUser({ profileImageUrl: await uploadPhoto(fx.ctx) })),
    400: (fx) => fx.ctx.api.post('/api/auth/register').send(buildUser({ email: 'nope' })),
    409: (fx) => fx.ctx.api.post('/api/auth/register').send(buildUser({ email: fx.member.email })),
  },
  login: {
    // The password of a real account.
    200: (fx) =>
      fx.ctx.api
        .post('/api/auth/login')
        .send({ email: fx.member.email, password: fx.member.password }),
    400: (fx) => fx.ctx.api.post('/api/auth/login').send({ email: fx.member.email }),
    // A wrong password: the one 401 that is not about the caller's access.
    401: (fx) =>
      fx.ctx.api.post('/api/auth/login').send({ email: fx.member.email, password: 'wrong-one' }),
    403: async (fx) => {
      const user = await deactivatedMember(fx);
      return fx.ctx.api
        .post('/api/auth/login')
        .send({ email: user.email, password: user.password });
    },
  },
  requestPasswordReset: {
    // A member's address: a link is mailed (the derived address is nobody's).
    200: (fx) =>
      fx.ctx.api.post('/api/auth/password-reset/request').send({ email: fx.member.email }),
    400: (fx) => fx.ctx.api.post('/api/auth/password-reset/request').send({ email: 'nope' }),
  },
  confirmPasswordReset: {
    // A token from an admin's reset link.
    200: async (fx) =>
      fx.ctx.api
        .post('/api/auth/password-reset/confirm')
        .send({ token: await resetToken(fx), password: 'a brand new passphrase' }),
    400: (fx) =>
      fx.ctx.api
        .post('/api/auth/password-reset/confirm')
        .send({ token: 'unknown-token', password: 'a brand new passphrase' }),
  },
  changeUser: {
    400: (fx) => fx.ctx.api.patch(`/api/users/${fx.outsider.id}`).set(fx.admin.auth).send({}),
    404: (fx) =>
      fx.ctx.api.patch(`/api/users/${NO_ID()}`).set(fx.admin.auth).send({ active: true }),
    // The only admin may not deactivate themself.
    409: (fx) =>
      fx.ctx.api.patch(`/api/users/${fx.admin.id}`).set(fx.admin.auth).send({ active: false }),
  },
  createInvite: {
    // With an e-mail address, which the answer shows.
    201: (fx) =>
      fx.ctx.api
        .post('/api/invites')
        .set(fx.admin.auth)
        .send({ role: 'admin', email: 'invited@example.com', expiresInDays: 3 }),
    400: (fx) =>
      fx.ctx.api.post('/api/invites').set(fx.admin.auth).send({ role: 'owner', expiresInDays: 0 }),
  },
  listInvites: {
    // Two invitations, one per page: the answer names the next.
    200: async (fx) => {
      await freshInvite(fx);
      await freshInvite(fx);
      return fx.ctx.api.get('/api/invites?limit=1').set(fx.admin.auth);
    },
    400: (fx) => fx.ctx.api.get('/api/invites?limit=0').set(fx.admin.auth),
  },
  lookUpInvite: {
    // The token of a real invitation.
    200: async (fx) => fx.ctx.api.get(`/api/invites/lookup?token=${(await freshInvite(fx)).token}`),
    400: (fx) => fx.ctx.api.get('/api/invites/lookup?token=not%20a%20token'),
    404: (fx) => fx.ctx.api.get('/api/invites/lookup?token=unknown'),
  },
  rotateAdminInviteToken: {
    // An app of its own: the others sign admins up with the code the tests know.
    200: async () => {
      const own = await createTestContext();
      try {
        const admin = await signUp(own, 'admin');
        return await own.api.post('/api/settings/admin-invite-token').set(admin.auth);
      } finally {
        await own.close();
      }
    },
  },
  listAuditEntries: {
    // One entry per page: the answer names the next.
    200: (fx) => fx.ctx.api.get('/api/audit?limit=1').set(fx.admin.auth),
    400: (fx) => fx.ctx.api.get('/api/audit?limit=0').set(fx.admin.auth),
  },
  updateProfile: {
    // A new password too, with the current one.
    200: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api
        .put('/api/auth/profile')
        .set(user.auth)
        .send({ name: 'New Name', currentPassword: user.password, newPassword: 'another-secret' });
    },
    400: (fx) => fx.ctx.api.put('/api/auth/profile').set(fx.member.auth).send({}),
    409: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api
        .put('/api/auth/profile')
        .set(user.auth)
        .send({ email: fx.outsider.email, currentPassword: user.password });
    },
  },
  uploadImage: {
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
    404: (fx) => fx.ctx.api.get(`/api/images/${NO_ID()}`),
  },
  listUsers: {
    // Two members, one per page: the answer carries X-Next-Cursor.
    200: (fx) => fx.ctx.api.get('/api/users?limit=1').set(fx.admin.auth),
    400: (fx) => fx.ctx.api.get('/api/users?limit=0').set(fx.admin.auth),
  },
  createUser: {
    400: (fx) =>
      fx.ctx.api
        .post('/api/users')
        .set(fx.admin.auth)
        .send(buildUser({ role: 'owner' })),
    409: (fx) =>
      fx.ctx.api
        .post('/api/users')
        .set(fx.admin.auth)
        .send(buildUser({ email: fx.outsider.email })),
  },
  getUser: {
    404: (fx) => fx.ctx.api.get(`/api/users/${NO_ID()}`).set(fx.admin.auth),
  },
  updateUser: {
    // With a photo: the answer shows it.
    200: async (fx) => {
      const user = await signUp(fx.ctx);
      return fx.ctx.api
        .put(`/api/users/${user.id}`)
        .set(fx.admin.auth)
        .send({ name: 'Renamed', profileImageUrl: await uploadPhoto(fx.ctx) });
    },
    400: (fx) => fx.ctx.api.put(`/api/users/${fx.outsider.id}`).set(fx.admin.auth).send({}),
    404: (fx) => fx.ctx.api.put(`/api/users/${NO_ID()}`).set(fx.admin.auth).send({ name: 'X' }),
    409: (fx) =>
      fx.ctx.api
        .put(`/api/users/${fx.outsider.id}`)
        .set(fx.admin.auth)
        .send({ email: fx.member.email }),
  },
  deleteUser: {
    404: (fx) => fx.ctx.api.delete(`/api/users/${NO_ID()}`).set(fx.admin.auth),
    // Tasks can only go to an active user.
    400: async (fx) =>
      fx.ctx.api
        .delete(`/api/users/${(await signUp(fx.ctx)).id}?reassignTo=${NO_ID()}`)
        .set(fx.admin.auth),
    // The only admin may not delete themself.
    409: (fx) => fx.ctx.api.delete(`/api/users/${fx.admin.id}`).set(fx.admin.auth),
  },
  listTasks: {
    400: (fx) => fx.ctx.api.get('/api/tasks?status=Done').set(fx.member.auth),
  },
  createTask: {
    // Two assignees and links: the answer lists them.
    201: (fx) =>
      fx.ctx.api
        .post('/api/tasks')
        .set(fx.admin.auth)
        .send(buildTask([fx.member.id, fx.outsider.id])),
    400: (fx) => fx.ctx.api.post('/api/tasks').set(fx.admin.auth).send({}),
  },
  getTask: {
    // Not assigned: the same 404 as for an unknown id.
    404: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}`).set(fx.outsider.auth),
  },
  updateTask: {
    // Links as typed: the answer has them normalised.
    200: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(fx.admin.auth)
        .send({ title: 'Retitled', attachments: ['example.com/a', 'https://example.com/b'] });
    },
    400: (fx) => fx.ctx.api.put(`/api/tasks/${fx.task._id}`).set(fx.admin.auth).send({}),
    404: (fx) => fx.ctx.api.put(`/api/tasks/${NO_ID()}`).set(fx.admin.auth).send({ title: 'X' }),
    409: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(fx.admin.auth)
        .set('If-Match', '"2000-01-01T00:00:00.000Z"')
        .send({ title: 'Stale' });
    },
  },
  deleteTask: {
    404: (fx) => fx.ctx.api.delete(`/api/tasks/${NO_ID()}`).set(fx.admin.auth),
  },
  createLabel: {
    400: (fx) => fx.ctx.api.post('/api/labels').set(fx.admin.auth).send({ name: 'No color' }),
    409: async (fx) => {
      const name = `Twice ${NO_ID()}`;
      await fx.ctx.api.post('/api/labels').set(fx.admin.auth).send({ name, color: '#000000' });
      return fx.ctx.api
        .post('/api/labels')
        .set(fx.admin.auth)
        .send({ name: name.toUpperCase(), color: '#000000' });
    },
  },
  updateLabel: {
    400: async (fx) => {
      const label = await freshLabel(fx);
      return fx.ctx.api.put(`/api/labels/${label._id}`).set(fx.admin.auth).send({});
    },
    404: (fx) => fx.ctx.api.put(`/api/labels/${NO_ID()}`).set(fx.admin.auth).send({ name: 'X' }),
    409: async (fx) => {
      const [first, second] = [await freshLabel(fx), await freshLabel(fx)];
      return fx.ctx.api
        .put(`/api/labels/${second._id}`)
        .set(fx.admin.auth)
        .send({ name: first.name });
    },
  },
  updateChecklist: {
    400: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo`)
        .set(fx.admin.auth)
        .send({ todoChecklist: [] }),
    404: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo`)
        .set(fx.outsider.auth)
        .send({ todoChecklist: [{ text: 'A' }] }),
  },
  updateChecklistItem: {
    400: (fx) =>
      fx.ctx.api
        .patch(`/api/tasks/${fx.task._id}/todo/${fx.task.todoChecklist[0]!._id}`)
        .set(fx.member.auth)
        .send({ completed: 'yes' }),
    404: (fx) =>
      fx.ctx.api
        .patch(`/api/tasks/${fx.task._id}/todo/${NO_ID()}`)
        .set(fx.member.auth)
        .send({ completed: true }),
  },
  updateTaskStatus: {
    400: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/status`)
        .set(fx.member.auth)
        .send({ status: 'Done' }),
    404: (fx) =>
      fx.ctx.api.put(`/api/tasks/${NO_ID()}/status`).set(fx.admin.auth).send({ status: 'Pending' }),
  },
  // Working together on a task (issue 16).
  listRecentActivity: {
    // A short page: the answer names the next.
    200: (fx) => fx.ctx.api.get('/api/activity?limit=2').set(fx.admin.auth),
    400: (fx) => fx.ctx.api.get('/api/activity?limit=0').set(fx.admin.auth),
  },
  listTaskActivity: {
    // A short page: the answer names the next.
    200: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}/activity?limit=2`).set(fx.member.auth),
    400: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}/activity?cursor=%3F`).set(fx.admin.auth),
  },
  listComments: {
    // A comment, one per page: the answer names the next.
    200: async (fx) => {
      await newComment(fx, fx.member);
      return fx.ctx.api.get(`/api/tasks/${fx.task._id}/comments?limit=1`).set(fx.member.auth);
    },
    400: (fx) => fx.ctx.api.get(`/api/tasks/${fx.task._id}/comments?limit=x`).set(fx.admin.auth),
  },
  createComment: {
    // With a mention.
    201: (fx) =>
      fx.ctx.api
        .post(`/api/tasks/${fx.task._id}/comments`)
        .set(fx.member.auth)
        .send({ body: 'Looks *good*', mentions: [fx.admin.id] }),
    400: (fx) =>
      fx.ctx.api
        .post(`/api/tasks/${fx.task._id}/comments`)
        .set(fx.member.auth)
        .send({ body: 'hi', mentions: [fx.outsider.id] }),
    404: (fx) =>
      fx.ctx.api
        .post(`/api/tasks/${fx.task._id}/comments`)
        .set(fx.outsider.auth)
        .send({ body: 'hi' }),
  },
  updateComment: {
    400: async (fx) =>
      fx.ctx.api
        .put(`/api/comments/${(await newComment(fx, fx.member))._id}`)
        .set(fx.member.auth)
        .send({ body: '' }),
    403: async (fx) =>
      fx.ctx.api
        .put(`/api/comments/${(await newComment(fx, fx.member))._id}`)
        .set(fx.admin.auth)
        .send({ body: 'Not mine' }),
    404: (fx) => fx.ctx.api.put(`/api/comments/${NO_ID()}`).set(fx.member.auth).send({ body: 'x' }),
  },
  deleteComment: {
    403: async (fx) =>
      fx.ctx.api
        .delete(`/api/comments/${(await newComment(fx, fx.admin))._id}`)
        .set(fx.member.auth),
  },
  uploadTaskFile: {
    400: (fx) =>
      fx.ctx.api.post(`/api/tasks/${fx.task._id}/files`).set(fx.member.auth).field('other', 'x'),
    404: (fx) =>
      fx.ctx.api
        .post(`/api/tasks/${fx.task._id}/files`)
        .set(fx.outsider.auth)
        .attach('file', Buffer.from('x'), 'x.bin'),
    413: (fx) =>
      fx.ctx.api
        .post(`/api/tasks/${fx.task._id}/files`)
        .set(fx.member.auth)
        .attach('file', Buffer.alloc(26 * 1024 * 1024), 'big.bin'),
  },
  deleteTaskFile: {
    403: async (fx) =>
      fx.ctx.api.delete(`/api/files/${(await newFile(fx, fx.admin))._id}`).set(fx.member.auth),
  },
  addChecklistItem: {
    400: (fx) =>
      fx.ctx.api.post(`/api/tasks/${fx.task._id}/todo`).set(fx.member.auth).send({ text: '' }),
    404: (fx) =>
      fx.ctx.api.post(`/api/tasks/${fx.task._id}/todo`).set(fx.outsider.auth).send({ text: 'x' }),
  },
  reorderChecklist: {
    400: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo/order`)
        .set(fx.admin.auth)
        .send({ ids: [NO_ID()] }),
    403: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo/order`)
        .set(fx.member.auth)
        .send({ ids: fx.task.todoChecklist.map((item) => item._id) }),
    404: (fx) =>
      fx.ctx.api.put(`/api/tasks/${NO_ID()}/todo/order`).set(fx.admin.auth).send({ ids: [] }),
  },
  renameChecklistItem: {
    // By an admin: an assignee renames only the items they added.
    200: async (fx) => {
      const task = await freshTask(fx);
      return fx.ctx.api
        .put(`/api/tasks/${task._id}/todo/${task.todoChecklist[0]!._id}`)
        .set(fx.admin.auth)
        .send({ text: 'Renamed' });
    },
    400: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo/${fx.task.todoChecklist[0]!._id}`)
        .set(fx.admin.auth)
        .send({ text: '' }),
    403: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo/${fx.task.todoChecklist[0]!._id}`)
        .set(fx.member.auth)
        .send({ text: 'Not mine' }),
    404: (fx) =>
      fx.ctx.api
        .put(`/api/tasks/${fx.task._id}/todo/${NO_ID()}`)
        .set(fx.admin.auth)
        .send({ text: 'x' }),
  },
  getOpenApiDocument: {
    // Served beside the declared endpoints, not declared with them.
    200: (fx) => fx.ctx.api.get('/api/openapi.json'),
  },
  getApiReference: {
    // Served beside the declared endpoints, not declared with them.
    200: (fx) => fx.ctx.api.get('/api/docs'),
  },
  streamEvents: {
    // The stream never ends: read it up to its first event, then hang up.
    200: async (fx) => {
      const { body } = await fx.ctx.api.post('/api/events/ticket').set(fx.member.auth);
      return untilReady(fx.ctx.api.get(`/api/events?ticket=${body.ticket}`));
    },
    400: (fx) => fx.ctx.api.get('/api/events?lastEventId=soon').set(fx.member.auth),
  },
  listNotifications: {
    // Filtered and paged.
    200: (fx) => fx.ctx.api.get('/api/notifications?unread=true&limit=5').set(fx.member.auth),
    400: (fx) => fx.ctx.api.get('/api/notifications?limit=0').set(fx.member.auth),
  },
  markNotificationsRead: {
    400: (fx) => fx.ctx.api.post('/api/notifications/read').set(fx.member.auth).send({ ids: 'x' }),
  },
  updateNotificationPreferences: {
    400: (fx) =>
      fx.ctx.api
        .put('/api/notifications/preferences')
        .set(fx.member.auth)
        .send({ email: { overdue: 'sometimes' } }),
  },
  showUnsubscribe: {
    // A token the server signed, as in a mail.
    200: (fx) =>
      fx.ctx.api
        .get('/api/notifications/unsubscribe')
        .query({ token: unsubscribeToken(testConfig.jwtSecret, fx.member.id, 'commented') }),
    400: (fx) => fx.ctx.api.get('/api/notifications/unsubscribe').query({ token: 'forged' }),
  },
  unsubscribe: {
    // A token the server signed, as in a mail.
    200: (fx) =>
      fx.ctx.api
        .post('/api/notifications/unsubscribe')
        .query({ token: unsubscribeToken(testConfig.jwtSecret, fx.member.id, 'commented') })
        .type('form')
        .send('List-Unsubscribe=One-Click'),
    400: (fx) => fx.ctx.api.post('/api/notifications/unsubscribe').query({ token: 'forged' }),
  },
  updateCalendarFeed: {
    400: (fx) => fx.ctx.api.put('/api/calendar/feed').set(fx.admin.auth).send({ scope: 'x' }),
    403: (fx) => fx.ctx.api.put('/api/calendar/feed').set(fx.member.auth).send({ scope: 'all' }),
  },
  getCalendar: {
    404: (fx) => fx.ctx.api.get(`/api/calendar/${NO_ID()}.ics`),
  },
};

/**
 * The answers an endpoint's declaration alone decides, before its handler runs: 401 without a
 * session, 403 for a member on an admin route or on another user's account, 404 for an unknown
 * id where there is no body to read first, and 413 for a JSON body past its limit. Every
 * declared endpoint gets these without a line of its own; `CASES` holds the rest.
 */
function derivedCases(endpoint: AnyEndpoint): Record<number, Send> {
  const method = endpoint.method;
  // Each path parameter a fresh id: these answers come before any lookup, or are the lookup's 404.
  const path = () => endpoint.path.replace(/\{\w+\}/g, () => NO_ID());
  const cases: Record<number, Send> = {};
  if (endpoint.access !== 'anyone') cases[401] = (fx) => fx.ctx.api[method](path());
  if (endpoint.access === 'admin' || endpoint.access === 'self-or-admin') {
    cases[403] = (fx) => fx.ctx.api[method](path()).set(fx.member.auth);
  }
  if (endpoint.params && !endpoint.body && !endpoint.requestBody) {
    cases[404] = (fx) => fx.ctx.api[method](path()).set(fx.admin.auth);
  }
  if (endpoint.body)
    cases[413] = (fx) => fx.ctx.api[method](path()).set(fx.admin.auth).send(HUGE_BODY);
  return { ...cases, [endpoint.status ?? 200]: derivedSuccess(endpoint) };
}

/** The success requests made from declarations, so a failure can say what to write by hand. */
const DERIVED = new Set<Send>();

/**
 * The success request made from the declaration (test/helpers/derived-request.ts): the caller
 * its access allows (an admin, else a member), real ids in its path, its required query and a
 * valid body. A read uses the shared fixtures; a change gets a member and records of its own, so
 * the shared ones stay as they are for the other cases.
 */
function derivedSuccess(endpoint: AnyEndpoint): Send {
  const send: Send = async (fx) => {
    const read = endpoint.method === 'get';
    const caller =
      endpoint.access === 'anyone'
        ? undefined
        : endpoint.access === 'admin'
          ? fx.admin
          : read
            ? fx.member
            : await signUp(fx.ctx);
    // The member a task is for: the caller, unless the caller is the admin.
    const assignee = caller && caller !== fx.admin ? caller : fx.member;
    let task: Task | undefined;
    const taskInPath = async () => (task ??= read ? fx.task : await freshTask(fx, {}, assignee));
    const ids: Record<string, string> = {};
    for (const param of pathParamsOf(endpoint)) {
      ids[param] = await {
        user: async () =>
          endpoint.access === 'self-or-admin' || read
            ? (caller ?? fx.member).id
            : (await signUp(fx.ctx)).id,
        task: async () => (await taskInPath())._id,
        item: async () => (await taskInPath()).todoChecklist[0]!._id,
        image: async () => fx.imageId,
        label: async () => (await freshLabel(fx))._id,
        invite: async () => (await freshInvite(fx)).id,
        comment: async () => (await newComment(fx, assignee, await taskInPath()))._id,
        file: async () => (await newFile(fx, assignee, await taskInPath()))._id,
        calendar: async () => calendarSecret(fx),
      }[pathKindOf(endpoint, param)]();
    }
    const context = { task, assignee: assignee.id };
    let req = fx.ctx.api[endpoint.method](fillPath(endpoint, ids)).query(
      derivedQuery(endpoint, context),
    );
    if (caller) req = req.set(caller.auth);
    const upload = uploadFieldOf(endpoint);
    if (upload) return req.attach(upload, fx.png, 'pixel.png');
    const body = derivedBody(endpoint, context);
    return body === undefined ? req : req.send(body as object);
  };
  DERIVED.add(send);
  return send;
}

/**
 * Every operation's requests: the derived ones (`derivedCases`), and the hand-written ones of
 * `CASES` over them.
 */
const ALL_CASES: Cases = Object.fromEntries(
  [...apiEndpoints.map((endpoint) => endpoint.operationId), ...Object.keys(CASES)].map((id) => {
    const endpoint = apiEndpoints.find((candidate) => candidate.operationId === id);
    return [id, { ...(endpoint && derivedCases(endpoint)), ...CASES[id] }];
  }),
);

/** Statuses that need an app of their own; they are exercised in the blocks further down. */
const ELSEWHERE: Record<string, number[]> = {
  // security-limits.test.ts: the limits, and password work past its queue (503).
  register: [403, 429, 503],
  login: [429, 503],
  requestPasswordReset: [429],
  confirmPasswordReset: [429, 503],
  lookUpInvite: [429],
  updateProfile: [429, 503],
  createUser: [503],
  updateUser: [503],
  uploadImage: [429],
  getReadiness: [503],
};

describe(`the API keeps to its OpenAPI document (${ENGINE})`, () => {
  const fx = {} as Fixtures;

  /**
   * A case's answer, with the status it must have. A derived request that cannot be made, or is
   * not answered as documented, fails saying which hand case to write: nothing goes untested.
   */
  async function answerOf(send: Send, operationId: string, status: number): Promise<Response> {
    const handCase = `write CASES.${operationId}[${status}] by hand`;
    const res = await send(fx).catch((error: Error) => {
      throw new Error(`${error.message}: ${handCase}`, { cause: error });
    });
    const derived = DERIVED.has(send)
      ? `${operationId}: the request derived from its declaration answered ` +
        `${res.status}, not ${status}: ${handCase}. `
      : '';
    expect(res.status, `${derived}${JSON.stringify(res.body)}`).toBe(status);
    return res;
  }
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
    expect(Object.keys(ALL_CASES).sort()).toEqual([...ids].sort());
  });

  for (const [operationId, byStatus] of Object.entries(ALL_CASES)) {
    describe(operationId, () => {
      for (const [status, send] of Object.entries(byStatus)) {
        it(`answers ${status} as documented`, async () => {
          const res = await answerOf(send, operationId, Number(status));
          checker.check(res, operationId);
        });
      }
    });
  }

  it('fails a derived request that is not answered as documented, naming the case to write', async () => {
    const declared = (id: string) => apiEndpoints.find((e) => e.operationId === id)!;
    // The token must name a real invitation; the one made from the schema names none.
    await expect(
      answerOf(derivedSuccess(declared('lookUpInvite')), 'lookUpInvite', 200),
    ).rejects.toThrow(
      'lookUpInvite: the request derived from its declaration answered 400, not 200: ' +
        'write CASES.lookUpInvite[200] by hand',
    );
    // No token made from the schema alone passes its own check.
    await expect(
      answerOf(derivedSuccess(declared('confirmPasswordReset')), 'confirmPasswordReset', 200),
    ).rejects.toThrow(/does not parse .*: write CASES.confirmPasswordReset\[200\] by hand$/);
  });

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
          requestPasswordReset: () =>
            limited.api.post('/api/auth/password-reset/request').send({ email: 'a@b.co' }),
          confirmPasswordReset: () =>
            limited.api
              .post('/api/auth/password-reset/confirm')
              .send({ token: 'unknown', password: 'a brand new passphrase' }),
          lookUpInvite: () => limited.api.get('/api/invites/lookup?token=unknown'),
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
        const send: Record<string, () => Test | Promise<Response>> = {
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
          confirmPasswordReset: async () => {
            const link = await busy.api
              .post(`/api/users/${member.id}/password-reset`)
              .set(admin.auth)
              .expect(200);
            const token = new URL(link.body.url as string, 'http://x').searchParams.get('token');
            return busy.api.post('/api/auth/password-reset/confirm').send({ token, password });
          },
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

    it('answers 403 on a plain sign-up when sign-up is by invitation only', async () => {
      const inviteOnly = await createTestContext({ signupMode: 'invite' });
      try {
        const res = await inviteOnly.api.post('/api/auth/register').send(buildUser());
        expect(res.status).toBe(403);
        checker.check(res, 'register');
      } finally {
        await inviteOnly.close();
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
      const planned = [...Object.keys(ALL_CASES[id] ?? {}), ...(ELSEWHERE[id] ?? []).map(String)];
      expect(planned.sort(), id).toEqual(documented);
    }
  });
});
