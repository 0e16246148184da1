import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, type Task } from '@task-manager/shared';
import { apiEndpoints } from '../../src/endpoints.js';
import { expressPath, type AnyEndpoint } from '../../src/http/endpoint.js';
import { unsubscribeToken } from '../../src/notifications/unsubscribe-token.js';
import { createOpenApiDocument } from '../../src/openapi/document.js';
import { databaseDigest } from '../helpers/db-digest.js';
import {
  DERIVED_PASSWORD,
  derivedBody,
  derivedQuery,
  fillPath,
  pathKindOf,
  pathParamsOf,
  uploadFieldOf,
} from '../helpers/derived-request.js';
import { untilReady } from '../helpers/event-stream.js';
import { buildTask, buildUser, createTask, signUp, type Session } from '../helpers/factories.js';
import { createContractChecker, type OpenApiDoc } from '../helpers/openapi.js';
import {
  createTestContext,
  ENGINE,
  INVITE_TOKEN,
  testConfig,
  type TestContext,
} from '../helpers/test-app.js';

/**
 * Who calls. "assigned member" is the member the task under test is assigned to; on the
 * /api/users/:id rows it is the user named by :id (the caller themself). "unassigned member" is
 * another member, never assigned to any task in this file, except on the rows made from a
 * declaration that name a comment or a file: there each caller is its author (derivedRecipe).
 */
const CALLERS = ['anonymous', 'assigned member', 'unassigned member', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

/**
 * The permission matrix: every declared endpoint, and the status each caller gets, read from the
 * endpoint's `access` (see src/http/endpoint.ts). Every request carries a valid body, so the
 * status says what the caller may do, not what the input was: the request recipes below where
 * one is written, otherwise the request made from the declaration (derivedRecipe).
 */
function statusesFor(endpoint: AnyEndpoint): Record<Caller, number> {
  const ok = endpoint.status ?? 200;
  switch (endpoint.access) {
    case 'anyone':
      return { anonymous: ok, 'assigned member': ok, 'unassigned member': ok, admin: ok };
    case 'signed-in':
      return { anonymous: 401, 'assigned member': ok, 'unassigned member': ok, admin: ok };
    case 'admin':
      return { anonymous: 401, 'assigned member': 403, 'unassigned member': 403, admin: ok };
    // A task a member may not see is "not found", as an unknown id.
    case 'task-viewer':
      return { anonymous: 401, 'assigned member': ok, 'unassigned member': 404, admin: ok };
    // On these rows the assigned member is the user the path names: the caller themself.
    case 'self-or-admin':
      return { anonymous: 401, 'assigned member': ok, 'unassigned member': 403, admin: ok };
  }
}

/** An endpoint as the matrix names it: `PUT /api/tasks/:id`. */
const nameOf = (endpoint: AnyEndpoint) =>
  `${endpoint.method.toUpperCase()} ${expressPath(endpoint.path)}`;
const DECLARED = new Map(apiEndpoints.map((endpoint) => [nameOf(endpoint), endpoint]));

const MATRIX: ReadonlyArray<readonly [string, number, number, number, number]> = apiEndpoints.map(
  (endpoint) => {
    const statuses = statusesFor(endpoint);
    const name = nameOf(endpoint);
    return [
      name,
      statuses.anonymous,
      statuses['assigned member'],
      statuses['unassigned member'],
      statuses.admin,
    ];
  },
);

/** The body of every refusal, by status. */
const REFUSALS: Record<number, { message: string; code: string }> = {
  401: { message: apiMessages.notAuthorized, code: 'unauthorized' },
  403: { message: apiMessages.adminOnly, code: 'forbidden' },
  404: { message: apiMessages.taskNotFound, code: 'not_found' },
};

interface Fixtures {
  ctx: TestContext;
  admin: Session;
  assigned: Session;
  unassigned: Session;
  /** Signs in on the login rows; nothing else touches it. */
  loginUser: Session;
  /** Assigned to `assigned`; only read, never changed. */
  task: Task;
  imageId: string;
  png: Buffer;
}

/** One request of a row, built afresh for that row. */
interface Prepared {
  path: string;
  body?: object;
  /** Sent as a multipart upload (the file in `field`) instead of a JSON body. */
  upload?: { field: string; file: Buffer };
  /** The answer is a file: read it as bytes. */
  binary?: boolean;
  /** The answer is an event stream: read it up to its `ready` event. */
  stream?: boolean;
  /** A caller other than the shared fixture, e.g. the freshly made user themself. */
  as?: Partial<Record<Caller, Session>>;
  /** What a refused request must leave exactly as it was. */
  state?: () => Promise<unknown>;
  /** Checks a successful answer. */
  verify(res: Response, caller: Caller, session: Session | undefined): Promise<void> | void;
}

interface EndpointSpec {
  /** The request for one row: `caller` is who sends it (a recipe may make records for them). */
  prepare(fx: Fixtures, caller: Caller): Promise<Prepared>;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CHECKLIST_TICKED = [
  { text: 'Draft', completed: true },
  { text: 'Review', completed: false },
];

/** The task as an admin sees it: status and whole body, so any change shows. */
async function taskState(fx: Fixtures, id: string) {
  const res = await fx.ctx.api.get(`/api/tasks/${id}`).set(fx.admin.auth);
  return { status: res.status, body: res.body };
}

function userRow(fx: Fixtures, id: string) {
  return fx.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

async function assignedTaskCount(fx: Fixtures, userId: string) {
  const rows = await fx.ctx.db
    .selectFrom('task_assignees')
    .select('task_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.length;
}

function expectWorkbook(res: Response, filename: string) {
  expect(res.headers['content-type']).toContain(XLSX_TYPE);
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
  const bytes = res.body as Buffer;
  expect(Buffer.isBuffer(bytes)).toBe(true);
  // An .xlsx file is a zip archive.
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
}

const ENDPOINTS: Record<string, EndpointSpec> = {
  'POST /api/auth/register': {
    prepare: async () => {
      const body = buildUser();
      return {
        path: '/api/auth/register',
        body,
        // A token sent along makes no difference: without the invite code it is a member.
        verify: (res) => {
          expect(res.body).toMatchObject({ email: body.email, name: body.name, role: 'member' });
          expect(res.body.token).toEqual(expect.any(String));
        },
      };
    },
  },
  'POST /api/auth/login': {
    prepare: async (fx) => ({
      path: '/api/auth/login',
      body: { email: fx.loginUser.email, password: fx.loginUser.password },
      verify: (res) => {
        expect(res.body).toMatchObject({ _id: fx.loginUser.id, role: 'member' });
        expect(res.body.token).toEqual(expect.any(String));
      },
    }),
  },
  'GET /api/auth/profile': {
    prepare: async () => ({
      path: '/api/auth/profile',
      verify: (res, caller, session) => {
        expect(res.body._id).toBe(session?.id);
        expect(res.body.role).toBe(caller === 'admin' ? 'admin' : 'member');
      },
    }),
  },
  'PUT /api/auth/profile': {
    prepare: async (fx) => {
      const name = `Renamed ${randomUUID().slice(0, 8)}`;
      return {
        path: '/api/auth/profile',
        body: { name },
        verify: async (res, _caller, session) => {
          expect(res.body).toMatchObject({ _id: session?.id, name });
          expect((await userRow(fx, session?.id ?? ''))?.name).toBe(name);
        },
      };
    },
  },
  'POST /api/auth/upload-image': {
    prepare: async (fx) => ({
      path: '/api/auth/upload-image',
      upload: { field: 'image', file: fx.png },
      verify: async (res) => {
        const match = /^\/api\/images\/([0-9a-f-]{36})$/.exec(res.body.imageUrl);
        expect(match).not.toBeNull();
        const image = await fx.ctx.api.get(`/api/images/${match?.[1]}`).expect(200);
        expect(image.headers['content-type']).toBe('image/webp');
      },
    }),
  },
  'GET /api/images/:id': {
    prepare: async (fx) => ({
      path: `/api/images/${fx.imageId}`,
      verify: (res) => {
        expect(res.headers['content-type']).toBe('image/webp');
        expect((res.body as Buffer).length).toBeGreaterThan(0);
      },
    }),
  },
  'GET /api/users': {
    prepare: async (fx) => ({
      path: '/api/users',
      verify: (res) => {
        const ids = (res.body as Array<{ _id: string }>).map((user) => user._id);
        // Everyone, admins included (they can be assigned tasks too).
        expect(ids).toEqual(
          expect.arrayContaining([fx.assigned.id, fx.unassigned.id, fx.admin.id]),
        );
      },
    }),
  },
  'POST /api/users': {
    prepare: async (fx) => {
      const body = buildUser({ role: 'member' });
      return {
        path: '/api/users',
        body,
        state: () =>
          fx.ctx.db.selectFrom('users').select('id').where('email', '=', body.email).execute(),
        verify: async (res) => {
          expect(res.body).toMatchObject({ email: body.email, name: body.name, role: 'member' });
          expect(await userRow(fx, res.body._id)).toBeDefined();
        },
      };
    },
  },
  'GET /api/users/:id': {
    prepare: async (fx) => ({
      path: `/api/users/${fx.assigned.id}`,
      verify: (res) => {
        expect(res.body).toMatchObject({ _id: fx.assigned.id, email: fx.assigned.email });
      },
    }),
  },
  'PUT /api/users/:id': {
    // A fresh member each row: a member trying to make themself admin is the row that matters.
    prepare: async (fx) => {
      const target = await signUp(fx.ctx, 'member');
      return {
        path: `/api/users/${target.id}`,
        body: { name: 'Promoted Person', role: 'admin' },
        as: { 'assigned member': target },
        state: () => userRow(fx, target.id),
        verify: async (res) => {
          expect(res.body).toMatchObject({
            _id: target.id,
            name: 'Promoted Person',
            role: 'admin',
          });
          expect((await userRow(fx, target.id))?.role).toBe('admin');
        },
      };
    },
  },
  'DELETE /api/users/:id': {
    prepare: async (fx) => {
      const target = await signUp(fx.ctx, 'member');
      return {
        path: `/api/users/${target.id}`,
        as: { 'assigned member': target },
        state: () => userRow(fx, target.id),
        verify: async (res) => {
          expect(res.body).toEqual({ message: apiMessages.userDeleted });
          expect(await userRow(fx, target.id)).toBeUndefined();
        },
      };
    },
  },
  'GET /api/tasks': {
    prepare: async (fx) => ({
      path: '/api/tasks',
      verify: (res, caller) => {
        const ids = (res.body.tasks as Task[]).map((task) => task._id);
        if (caller === 'unassigned member') expect(ids).toEqual([]);
        else expect(ids).toContain(fx.task._id);
      },
    }),
  },
  'POST /api/tasks': {
    prepare: async (fx) => {
      const body = buildTask([fx.assigned.id]);
      return {
        path: '/api/tasks',
        body,
        state: () =>
          fx.ctx.db.selectFrom('tasks').select('id').where('title', '=', body.title).execute(),
        verify: (res) => {
          expect(res.body.message).toBe(apiMessages.taskCreated);
          expect(res.body.task).toMatchObject({ title: body.title, createdBy: fx.admin.id });
          expect(res.body.task.assignedTo.map((user: { _id: string }) => user._id)).toEqual([
            fx.assigned.id,
          ]);
        },
      };
    },
  },
  'GET /api/tasks/:id': {
    prepare: async (fx) => ({
      path: `/api/tasks/${fx.task._id}`,
      verify: (res) => {
        expect(res.body).toMatchObject({ _id: fx.task._id, title: fx.task.title });
      },
    }),
  },
  'PUT /api/tasks/:id': {
    prepare: async (fx) => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      return {
        path: `/api/tasks/${task._id}`,
        body: { title: 'Retitled', priority: 'High' },
        state: () => taskState(fx, task._id),
        verify: (res) => {
          expect(res.body.message).toBe(apiMessages.taskUpdated);
          expect(res.body.task).toMatchObject({
            _id: task._id,
            title: 'Retitled',
            priority: 'High',
          });
        },
      };
    },
  },
  'DELETE /api/tasks/:id': {
    prepare: async (fx) => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      return {
        path: `/api/tasks/${task._id}`,
        state: () => taskState(fx, task._id),
        verify: async (res) => {
          expect(res.body).toEqual({ message: apiMessages.taskDeleted });
          expect((await taskState(fx, task._id)).status).toBe(404);
        },
      };
    },
  },
  'PUT /api/tasks/:id/todo': {
    prepare: async (fx) => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      return {
        path: `/api/tasks/${task._id}/todo`,
        body: { todoChecklist: CHECKLIST_TICKED },
        state: () => taskState(fx, task._id),
        verify: (res) => {
          expect(res.body.message).toBe(apiMessages.checklistUpdated);
          expect(res.body.task).toMatchObject({
            _id: task._id,
            progress: 50,
            status: 'In Progress',
            todoChecklist: CHECKLIST_TICKED.map((item) => expect.objectContaining(item)),
          });
        },
      };
    },
  },
  'PATCH /api/tasks/:id/todo/:itemId': {
    prepare: async (fx) => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      const [first, second] = task.todoChecklist;
      return {
        path: `/api/tasks/${task._id}/todo/${second?._id}`,
        body: { completed: true },
        state: () => taskState(fx, task._id),
        verify: (res) => {
          expect(res.body.message).toBe(apiMessages.checklistUpdated);
          expect(res.body.task).toMatchObject({
            _id: task._id,
            progress: 50,
            status: 'In Progress',
            todoChecklist: [first, { ...second, completed: true }],
          });
        },
      };
    },
  },
  'PUT /api/tasks/:id/status': {
    prepare: async (fx) => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      return {
        path: `/api/tasks/${task._id}/status`,
        body: { status: 'Completed' },
        state: () => taskState(fx, task._id),
        verify: (res) => {
          expect(res.body.message).toBe(apiMessages.statusUpdated);
          expect(res.body.task).toMatchObject({
            _id: task._id,
            status: 'Completed',
            progress: 100,
          });
        },
      };
    },
  },
  'GET /api/tasks/dashboard-data': {
    prepare: async (fx) => ({
      path: '/api/tasks/dashboard-data',
      verify: async (res) => {
        const all = await fx.ctx.db.selectFrom('tasks').select('id').execute();
        expect(res.body.statistics.totalTasks).toBe(all.length);
        expect(all.length).toBeGreaterThan(0);
      },
    }),
  },
  'POST /api/auth/logout': {
    // Fresh sessions: a logout ends the token it carries, which the other rows still need.
    prepare: async (fx) => ({
      path: '/api/auth/logout',
      as: {
        'assigned member': await signUp(fx.ctx, 'member'),
        'unassigned member': await signUp(fx.ctx, 'member'),
        admin: await signUp(fx.ctx, 'admin'),
      },
      verify: (res) => expect(res.body).toEqual({ message: apiMessages.loggedOut }),
    }),
  },
  'GET /api/health': {
    prepare: async () => ({
      path: '/api/health',
      verify: (res) => expect(res.body).toEqual({ status: 'ok' }),
    }),
  },
  'GET /api/ready': {
    prepare: async () => ({
      path: '/api/ready',
      verify: (res) => expect(res.body).toEqual({ status: 'ready' }),
    }),
  },
  'GET /api/tasks/user-dashboard-data': {
    // Always the caller's own tasks, for an admin too.
    prepare: async (fx) => ({
      path: '/api/tasks/user-dashboard-data',
      verify: async (res, caller, session) => {
        const own = await assignedTaskCount(fx, session?.id ?? '');
        expect(res.body.statistics.totalTasks).toBe(own);
        if (caller === 'assigned member') expect(own).toBeGreaterThan(0);
        else expect(own).toBe(0);
      },
    }),
  },
  'GET /api/reports/export/tasks': {
    prepare: async () => ({
      path: '/api/reports/export/tasks',
      binary: true,
      verify: (res) => expectWorkbook(res, 'tasks_report.xlsx'),
    }),
  },
  'GET /api/reports/export/users': {
    prepare: async () => ({
      path: '/api/reports/export/users',
      binary: true,
      verify: (res) => expectWorkbook(res, 'user_details.xlsx'),
    }),
  },
  // The requests below need what a declaration cannot give: a token a server made, an item
  // the assignee added, a stream read only up to its start, a code put back afterwards.
  'POST /api/auth/password-reset/confirm': {
    prepare: async (fx) => {
      const member = await signUp(fx.ctx, 'member');
      const link = await fx.ctx.api
        .post(`/api/users/${member.id}/password-reset`)
        .set(fx.admin.auth)
        .expect(200);
      const token = new URL(String(link.body.url), 'http://x').searchParams.get('token');
      return {
        path: '/api/auth/password-reset/confirm',
        body: { token, password: DERIVED_PASSWORD },
        verify: async () => {
          await fx.ctx.api
            .post('/api/auth/login')
            .send({ email: member.email, password: DERIVED_PASSWORD })
            .expect(200);
        },
      };
    },
  },
  'GET /api/invites/lookup': {
    prepare: async (fx) => {
      const invite = await fx.ctx.api
        .post('/api/invites')
        .set(fx.admin.auth)
        .send({ role: 'member', email: `invited-${randomUUID()}@example.com` })
        .expect(201);
      return {
        path: `/api/invites/lookup?token=${invite.body.token}`,
        verify: (res) =>
          expect(res.body).toMatchObject({ role: 'member', email: invite.body.email }),
      };
    },
  },
  'POST /api/settings/admin-invite-token': {
    prepare: async (fx) => ({
      path: '/api/settings/admin-invite-token',
      state: () => fx.ctx.db.selectFrom('app_settings').selectAll().execute(),
      verify: async (res) => {
        expect(res.body.adminInviteToken).toMatch(/^\d{6}$/);
        expect(res.body.adminInviteToken).not.toBe(INVITE_TOKEN);
        // Back to the code the other rows sign admins up with (the one the app started with).
        await fx.ctx.db
          .deleteFrom('app_settings')
          .where('key', '=', 'admin_invite_token')
          .execute();
      },
    }),
  },
  'PUT /api/tasks/:id/todo/:itemId': {
    // An item the assignee added: theirs to rename (an admin renames any).
    prepare: async (fx) => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      const added = await fx.ctx.api
        .post(`/api/tasks/${task._id}/todo`)
        .set(fx.assigned.auth)
        .send({ text: 'Added by the assignee' })
        .expect(201);
      const item = (added.body.task as Task).todoChecklist.at(-1)!;
      return {
        path: `/api/tasks/${task._id}/todo/${item._id}`,
        body: { text: 'Renamed' },
        state: () => taskState(fx, task._id),
        verify: (res) => {
          expect(res.body.task.todoChecklist).toContainEqual(
            expect.objectContaining({ _id: item._id, text: 'Renamed' }),
          );
        },
      };
    },
  },
  'GET /api/events': {
    prepare: async () => ({
      path: '/api/events',
      stream: true,
      verify: (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream');
        expect(res.body).toContain('event: ready');
      },
    }),
  },
  'GET /api/notifications/unsubscribe': {
    prepare: async (fx) => ({
      path: `/api/notifications/unsubscribe?token=${unsubscribeToken(testConfig.jwtSecret, fx.assigned.id, 'commented')}`,
      verify: (res) => expect(res.headers['content-type']).toContain('text/html'),
    }),
  },
  'POST /api/notifications/unsubscribe': {
    prepare: async (fx) => {
      const member = await signUp(fx.ctx, 'member');
      const preferences = () =>
        fx.ctx.api.get('/api/notifications/preferences').set(member.auth).expect(200);
      return {
        path: `/api/notifications/unsubscribe?token=${unsubscribeToken(testConfig.jwtSecret, member.id, 'commented')}`,
        state: async () => (await preferences()).body,
        verify: async () => {
          expect((await preferences()).body.email.commented).toBe('never');
        },
      };
    },
  },
};

// A request recipe for an endpoint that is not declared is left over from an old API.
{
  const named: string[] = MATRIX.map(([endpoint]) => endpoint);
  const undeclared = Object.keys(ENDPOINTS).filter((endpoint) => !named.includes(endpoint));
  if (undeclared.length > 0) {
    throw new Error(`Permission matrix: requests for undeclared ${undeclared.join(', ')}`);
  }
}

const DOC = createOpenApiDocument() as unknown as OpenApiDoc;
/** Checks a derived request's success against the document: the answer its status documents. */
const checker = createContractChecker(DOC);

/** The shared callers (see Fixtures). */
const sharedSessions = (fx: Fixtures): Record<Caller, Session | undefined> => ({
  anonymous: undefined,
  'assigned member': fx.assigned,
  'unassigned member': fx.unassigned,
  admin: fx.admin,
});

/**
 * The recipe of an endpoint that has none above, made from its declaration
 * (test/helpers/derived-request.ts): real ids in its path, its required query, a valid body, a
 * small PNG for an upload. A read uses the shared fixtures. A change, and a request naming a
 * comment or a file, gets callers of its own (a logout or a deletion never reaches the shared
 * ones) and records made for it: a task assigned to the assigned member (who is also the user a
 * path names), a comment or a file of the caller's own. A success must be the answer the OpenAPI
 * document gives for its status; a refusal must leave every table as it was.
 */
function derivedRecipe(endpoint: AnyEndpoint): EndpointSpec {
  return {
    prepare: async (fx, caller) => {
      const params = pathParamsOf(endpoint).map((param) => ({
        param,
        kind: pathKindOf(endpoint, param),
      }));
      const authored = params.some(({ kind }) => kind === 'comment' || kind === 'file');
      const own = endpoint.method !== 'get' || authored;
      const sessions: Record<Caller, Session | undefined> = own
        ? {
            anonymous: undefined,
            'assigned member': await signUp(fx.ctx, 'member'),
            'unassigned member': await signUp(fx.ctx, 'member'),
            admin: await signUp(fx.ctx, 'admin'),
          }
        : sharedSessions(fx);
      const assigned = sessions['assigned member']!;
      // A comment or a file is the caller's own (anonymous: the assigned member's), on a task
      // they are assigned to (an admin's: on the assigned member's).
      const author = sessions[caller] ?? assigned;
      const member = authored && author !== sessions.admin ? author : assigned;
      let task: Task | undefined;
      const taskInPath = async () =>
        (task ??= own ? await createTask(fx.ctx, fx.admin, [member.id]) : fx.task);
      const ids: Record<string, string> = {};
      for (const { param, kind } of params) {
        ids[param] = await {
          user: async () => assigned.id,
          task: async () => (await taskInPath())._id,
          item: async () => (await taskInPath()).todoChecklist[0]!._id,
          image: async () => fx.imageId,
          label: async () => {
            const label = { name: `Label ${randomUUID().slice(0, 8)}`, color: '#336699' };
            const res = await fx.ctx.api.post('/api/labels').set(fx.admin.auth).send(label);
            return String(res.body._id);
          },
          invite: async () => {
            const res = await fx.ctx.api.post('/api/invites').set(fx.admin.auth).send({});
            return String(res.body._id);
          },
          comment: async () => {
            const res = await fx.ctx.api
              .post(`/api/tasks/${(await taskInPath())._id}/comments`)
              .set(author.auth)
              .send({ body: 'A comment' });
            return String(res.body._id);
          },
          file: async () => {
            const res = await fx.ctx.api
              .post(`/api/tasks/${(await taskInPath())._id}/files`)
              .set(author.auth)
              .attach('file', Buffer.from('bytes'), 'file.bin');
            return String(res.body._id);
          },
          calendar: async () => {
            const feed = await fx.ctx.api.get('/api/calendar/feed').set(fx.assigned.auth);
            return /([^/]+)\.ics$/.exec(String(feed.body.url))![1]!;
          },
        }[kind]();
      }
      const context = { task, assignee: assigned.id };
      const query = new URLSearchParams(derivedQuery(endpoint, context)).toString();
      const field = uploadFieldOf(endpoint);
      return {
        path: `${fillPath(endpoint, ids)}${query ? `?${query}` : ''}`,
        body: field ? undefined : (derivedBody(endpoint, context) as object | undefined),
        upload: field ? { field, file: fx.png } : undefined,
        as: own ? sessions : undefined,
        state: async () => (await databaseDigest(fx.ctx.db, fx.ctx.engine)).byTable,
        verify: (res) => {
          checker.check(res, endpoint.operationId);
        },
      };
    },
  };
}

/** The recipe written for an endpoint, or the one made from its declaration. */
function recipeFor(name: string): EndpointSpec {
  const endpoint = DECLARED.get(name);
  if (!endpoint) throw new Error(`Permission matrix: ${name} is not declared`);
  return Object.hasOwn(ENDPOINTS, name) ? ENDPOINTS[name]! : derivedRecipe(endpoint);
}

/** The fixture ids that fill a path's `:id` and `:itemId`, by what the path names. */
function pathWithFixtureIds(path: string, fx: Fixtures): string {
  const id = path.startsWith('/api/users/')
    ? fx.assigned.id
    : path.startsWith('/api/images/')
      ? fx.imageId
      : fx.task._id;
  return path.replace(':id', id).replace(':itemId', fx.task.todoChecklist[0]!._id);
}

/**
 * Refusals the router decides from the declared access alone, before any body is read: 401 for
 * no sign-in, 403 for a member on an admin route or on another user's account. These are tried
 * on every declared endpoint a second time, with no body at all.
 */
const isAccessRefusal = (status: number) => status === 401 || status === 403;

/** Reads any answer as raw bytes (the reports are files). */
function readBytes(res: Response, done: (error: Error | null, body: Buffer) => void) {
  // superagent hands the parser the raw response stream.
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

describe(`permission matrix (${ENGINE})`, () => {
  const fx = {} as Fixtures;

  beforeAll(async () => {
    fx.ctx = await createTestContext();
    [fx.admin, fx.assigned, fx.unassigned, fx.loginUser] = await Promise.all([
      signUp(fx.ctx, 'admin'),
      signUp(fx.ctx, 'member'),
      signUp(fx.ctx, 'member'),
      signUp(fx.ctx, 'member'),
    ]);
    fx.task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
    fx.png = await sharp({
      create: { width: 4, height: 4, channels: 3, background: { r: 200, g: 40, b: 40 } },
    })
      .png()
      .toBuffer();
    const upload = await fx.ctx.api
      .post('/api/auth/upload-image')
      .attach('image', fx.png, 'pixel.png')
      .expect(200);
    fx.imageId = String(upload.body.imageUrl).split('/').pop() ?? '';
  });
  afterAll(() => fx.ctx.close());

  // Every declared endpoint: every caller, with a valid request (written, or derived).
  describe.each(MATRIX)('%s', (endpoint, ...statuses) => {
    const rows = CALLERS.map((caller, index) => ({ caller, status: statuses[index] as number }));

    it.each(rows)('$caller → $status', async ({ caller, status }) => {
      const prepared: Prepared = await recipeFor(endpoint).prepare(fx, caller);
      const session = prepared.as?.[caller] ?? sharedSessions(fx)[caller];
      const before = await prepared.state?.();

      const [verb, ...rest] = endpoint.split(' ');
      const method = verb?.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      expect(rest).toHaveLength(1);
      let req = fx.ctx.api[method](prepared.path);
      if (session) req = req.set(session.auth);
      if (prepared.binary && status < 300) req = req.buffer(true).parse(readBytes);
      if (prepared.stream) req = untilReady(req);
      if (prepared.upload)
        req = req.attach(prepared.upload.field, prepared.upload.file, 'pixel.png');
      else if (prepared.body) req = req.send(prepared.body);
      const res = await req;

      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (status < 300) {
        await prepared.verify(res, caller, session);
      } else {
        expect(res.body).toEqual(REFUSALS[status]);
        // A refused request changes nothing.
        if (prepared.state) expect(await prepared.state()).toEqual(before);
      }
    });
  });

  // Every declared endpoint: the refusals its access implies, with no body at all.
  const refusing = MATRIX.filter(([, ...statuses]) => statuses.some(isAccessRefusal));
  describe.each(refusing)('%s, refused before the body is read', (endpoint, ...statuses) => {
    const refusals = CALLERS.map((caller, index) => ({
      caller,
      status: statuses[index] as number,
    })).filter(({ status }) => isAccessRefusal(status));

    it('refuses every caller its access leaves out', async () => {
      const [verb, path] = endpoint.split(' ');
      const method = verb!.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      for (const { caller, status } of refusals) {
        let req = fx.ctx.api[method](pathWithFixtureIds(path!, fx));
        const session = sharedSessions(fx)[caller];
        if (session) req = req.set(session.auth);
        const res = await req;
        expect(res.status, `${caller}: ${JSON.stringify(res.body)}`).toBe(status);
        expect(res.body).toEqual(REFUSALS[status]);
      }
    });
  });

  describe('refusals that change nothing', () => {
    it("answers 400 to a member's checklist edit (not a tick), and keeps the task", async () => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      const before = await taskState(fx, task._id);
      const attempts = [
        // A renamed item.
        [
          { text: 'Draft (edited)', completed: true },
          { text: 'Review', completed: false },
        ],
        // An added item.
        [...CHECKLIST_TICKED, { text: 'Ship', completed: false }],
        // A removed item.
        [{ text: 'Draft', completed: true }],
        // The same items in another order.
        [
          { text: 'Review', completed: true },
          { text: 'Draft', completed: false },
        ],
      ];
      for (const todoChecklist of attempts) {
        const res = await fx.ctx.api
          .put(`/api/tasks/${task._id}/todo`)
          .set(fx.assigned.auth)
          .send({ todoChecklist })
          .expect(400);
        expect(res.body).toEqual({
          message: apiMessages.checklistMemberChange,
          code: expect.any(String),
        });
      }
      expect(await taskState(fx, task._id)).toEqual(before);
    });

    it("keeps the task unchanged after members' refused update, delete and status", async () => {
      const task = await createTask(fx.ctx, fx.admin, [fx.assigned.id]);
      const before = await taskState(fx, task._id);
      expect(before.status).toBe(200);
      await fx.ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(fx.assigned.auth)
        .send({ title: 'Hijacked', assignedTo: [fx.unassigned.id] })
        .expect(403);
      await fx.ctx.api.delete(`/api/tasks/${task._id}`).set(fx.assigned.auth).expect(403);
      await fx.ctx.api
        .put(`/api/tasks/${task._id}/status`)
        .set(fx.unassigned.auth)
        .send({ status: 'Completed' })
        .expect(404);
      await fx.ctx.api
        .put(`/api/tasks/${task._id}/todo`)
        .set(fx.unassigned.auth)
        .send({ todoChecklist: CHECKLIST_TICKED })
        .expect(404);
      await fx.ctx.api
        .patch(`/api/tasks/${task._id}/todo/${task.todoChecklist[0]?._id}`)
        .set(fx.unassigned.auth)
        .send({ completed: true })
        .expect(404);
      expect(await taskState(fx, task._id)).toEqual(before);
      // The outsider still cannot see it: nothing assigned them on the way.
      await fx.ctx.api.get(`/api/tasks/${task._id}`).set(fx.unassigned.auth).expect(404);
    });

    it('answers an unassigned member the same 404 as for a task that does not exist', async () => {
      const missing = await fx.ctx.api
        .get(`/api/tasks/${randomUUID()}`)
        .set(fx.unassigned.auth)
        .expect(404);
      const hidden = await fx.ctx.api
        .get(`/api/tasks/${fx.task._id}`)
        .set(fx.unassigned.auth)
        .expect(404);
      expect(hidden.body).toEqual(missing.body);
    });
  });
});
