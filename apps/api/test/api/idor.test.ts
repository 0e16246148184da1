import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import request from 'supertest';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import { apiEndpoints } from '../../src/endpoints.js';
import { createOpenApiDocument } from '../../src/openapi/document.js';
import { databaseDigester } from '../helpers/db-digest.js';
import { derivedBody, prefixKindOf, uploadFieldOf } from '../helpers/derived-request.js';
import type { Session } from '../helpers/factories.js';
import {
  createContractChecker,
  operationsOf,
  resolvePointer,
  type OpenApiDoc,
} from '../helpers/openapi.js';
import { buildWorld, type World } from '../helpers/security-world.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * No caller reaches what is not theirs. The cases are generated from the OpenAPI document: every
 * operation that takes an id (in its path or its body) is tried by every caller with every
 * other user's ids and with ids of things the caller must not reach, and the status must be
 * the one the endpoint's declared access implies (expectedStatus, below). A refused request must
 * change nothing (a digest of every row of every table, before and after). A new endpoint is
 * attacked here as soon as it is declared: its ids are found in the document, what they name is
 * read from its path, and who may reach what from its `access`.
 */

const DOC = createOpenApiDocument() as unknown as OpenApiDoc;

/** Who calls. `deleted` carries the token of an account that no longer exists. */
const CALLERS = ['anonymous', 'deleted', 'M1', 'M2', 'A1', 'A2'] as const;
type Caller = (typeof CALLERS)[number];
type Role = 'anonymous' | 'member' | 'admin';
/** A token whose account was deleted is nobody's: the server must treat it as no token. */
const ROLE_OF: Record<Caller, Role> = {
  anonymous: 'anonymous',
  deleted: 'anonymous',
  M1: 'member',
  M2: 'member',
  A1: 'admin',
  A2: 'admin',
};

/** What an id names. */
type IdKind =
  | 'user'
  | 'task'
  | 'task+item'
  | 'image'
  | 'assignee'
  | 'invite'
  | 'label'
  | 'comment'
  | 'file'
  | 'labels';

/** Body fields that name other records, by what they name. */
const BODY_KINDS: Record<string, IdKind> = { assignedTo: 'assignee', labels: 'labels' };

/**
 * Path parameters that are a secret, not the id of something a caller may or may not reach: the
 * address itself is the key (a calendar feed's), so whoever has it reads the feed by design.
 * calendar-feed.test.ts covers them: unknown, rotated and deactivated secrets answer 404.
 */
const BEARER_SECRETS = new Set(['secret']);

/**
 * Body ids that name no record the caller reaches, each checked where it is made: changeUser's
 * `reassignTo` (admins only, beside `active: false`) names who takes over a deactivated person's
 * open tasks, any other active user; members.test.ts covers it (self, inactive, unknown: 400).
 */
const HANDOVER_FIELDS = new Set(['changeUser reassignTo']);

/** What an id slot names, from the path it is in (or the body field); undefined: unknown. */
function kindOf(path: string, slot: string): IdKind | undefined {
  if (slot.startsWith('body ')) return BODY_KINDS[slot.slice('body '.length)];
  // The resource the path's `{id}` names (derived-request.ts); `{itemId}` is a checklist item
  // of a task. A calendar's `{secret}` is not an id (BEARER_SECRETS).
  const prefixKind = prefixKindOf(path);
  const kind = prefixKind === 'calendar' || prefixKind === 'item' ? undefined : prefixKind;
  if (slot === 'path id') return kind;
  return slot === 'path id+itemId' && kind === 'task' ? 'task+item' : undefined;
}

/**
 * The targets of each kind, by name, and how a target relates to the caller. `world` is read
 * when the case runs (the world is rebuilt after every accepted change).
 */
interface Target {
  label: string;
  /** The ids to send, by slot part (`id`, `itemId`, or the body field). */
  ids(world: World): Record<string, string>;
  relation(world: World, caller: Caller): string;
  /** The task the path names, when there is one (for a body that depends on it). */
  task?(world: World): Task | undefined;
}

const USER_LABELS = ['A1', 'A2', 'M1', 'M2'] as const;
const TASK_LABELS = ['T1', 'T2', 'T12'] as const;

function sessionOf(world: World, caller: Caller): Session | undefined {
  return caller === 'anonymous' ? undefined : world[caller];
}

function userRelation(world: World, caller: Caller, userId: string | undefined): string {
  if (userId === undefined) return 'no such user';
  if (userId === world.deleted.id) return 'a deleted user';
  if (userId === sessionOf(world, caller)?.id) return 'themself';
  return userId === world.A1.id || userId === world.A2.id ? 'another admin' : 'another member';
}

function taskRelation(world: World, caller: Caller, task: Task | undefined): string {
  if (!task) return 'no such task';
  const me = sessionOf(world, caller)?.id;
  return task.assignedTo.some((user) => user._id === me)
    ? 'a task assigned to them'
    : 'a task not assigned to them';
}

const NO_ID = randomUUID();

function userTargets(): Target[] {
  const named = USER_LABELS.map((label) => ({
    label,
    ids: (world: World) => ({ id: world[label].id }),
    relation: (world: World, caller: Caller) => userRelation(world, caller, world[label].id),
  }));
  return [
    ...named,
    {
      label: 'the deleted user',
      ids: (world) => ({ id: world.deleted.id }),
      relation: (world, caller) => userRelation(world, caller, world.deleted.id),
    },
    {
      label: 'an unknown id',
      ids: () => ({ id: NO_ID }),
      relation: () => 'no such user',
    },
  ];
}

function taskTargets(): Target[] {
  return [
    ...TASK_LABELS.map((label) => ({
      label,
      ids: (world: World) => ({ id: world[label]._id }),
      relation: (world: World, caller: Caller) => taskRelation(world, caller, world[label]),
      task: (world: World) => world[label],
    })),
    {
      label: 'an unknown id',
      ids: () => ({ id: NO_ID }),
      relation: () => 'no such task',
      task: () => undefined,
    },
  ];
}

/** Every task with its own item, each other task's items, and an unknown item. */
function taskItemTargets(): Target[] {
  const targets: Target[] = [];
  for (const label of TASK_LABELS) {
    const task = (world: World) => world[label];
    const on = (world: World, caller: Caller) => taskRelation(world, caller, task(world));
    targets.push({
      label: `${label}, its own item`,
      ids: (world) => ({ id: task(world)._id, itemId: task(world).todoChecklist[0]!._id }),
      relation: (world, caller) => `${on(world, caller)}; its own item`,
      task,
    });
    for (const other of TASK_LABELS.filter((name) => name !== label)) {
      targets.push({
        label: `${label}, an item of ${other}`,
        ids: (world) => ({ id: task(world)._id, itemId: world[other].todoChecklist[1]!._id }),
        relation: (world, caller) => `${on(world, caller)}; an item of another task`,
        task,
      });
    }
    targets.push({
      label: `${label}, an unknown item`,
      ids: (world) => ({ id: task(world)._id, itemId: NO_ID }),
      relation: (world, caller) => `${on(world, caller)}; no such item`,
      task,
    });
  }
  targets.push({
    label: `an unknown task, an item of T1`,
    ids: (world) => ({ id: NO_ID, itemId: world.T1.todoChecklist[0]!._id }),
    relation: () => 'no such task; an item of another task',
    task: () => undefined,
  });
  return targets;
}

function assigneeTargets(): Target[] {
  const relation = (world: World, userId: string | undefined) => {
    if (userId === undefined) return 'no such user';
    if (userId === world.deleted.id) return 'a deleted user';
    return userId === world.A1.id || userId === world.A2.id ? 'an admin' : 'a member';
  };
  return [
    ...USER_LABELS.map((label) => ({
      label,
      ids: (world: World) => ({ assignedTo: world[label].id }),
      relation: (world: World) => relation(world, world[label].id),
    })),
    {
      label: 'the deleted user',
      ids: (world) => ({ assignedTo: world.deleted.id }),
      relation: (world) => relation(world, world.deleted.id),
    },
    { label: 'an unknown id', ids: () => ({ assignedTo: NO_ID }), relation: () => 'no such user' },
  ];
}

const TARGETS: Record<IdKind, Target[]> = {
  user: userTargets(),
  task: taskTargets(),
  'task+item': taskItemTargets(),
  image: [
    {
      label: 'the stored image',
      ids: (world) => ({ id: world.imageId }),
      relation: () => 'a stored image',
    },
    { label: 'an unknown id', ids: () => ({ id: NO_ID }), relation: () => 'no such image' },
  ],
  assignee: assigneeTargets(),
  label: [{ label: 'an unknown id', ids: () => ({ id: NO_ID }), relation: () => 'no such label' }],
  labels: [
    { label: 'an unknown label', ids: () => ({ labels: NO_ID }), relation: () => 'no such label' },
  ],
  invite: [
    { label: 'an unknown id', ids: () => ({ id: NO_ID }), relation: () => 'no such invite' },
  ],
  comment: [
    { label: 'an unknown id', ids: () => ({ id: NO_ID }), relation: () => 'no such comment' },
  ],
  file: [{ label: 'an unknown id', ids: () => ({ id: NO_ID }), relation: () => 'no such file' }],
};

/** What each declared endpoint allows, by operation id. */
const ENDPOINTS = new Map(apiEndpoints.map((endpoint) => [endpoint.operationId, endpoint]));

/** Targets that do not exist (or no longer do), by how a target relates to a caller. */
const MISSING = new Set([
  'no such user',
  'a deleted user',
  'no such task',
  'no such image',
  'no such invite',
  'no such comment',
  'no such file',
  'no such label',
]);

/**
 * The status a caller must get, read from the endpoint's declared access and what the id names:
 * - nobody signed in: 401 (unless anyone may call it);
 * - a member on an admin endpoint, or on another user's account: 403, whatever the id;
 * - a task a member may not see is "not found", exactly as an unknown id, and so is an item that
 *   is not the task's own: a member never learns what exists beyond their tasks;
 * - an unknown or deleted record named in the path: 404; named in the body: 400;
 * - otherwise the endpoint's success status.
 */
function expectedStatus(operationId: string, slot: string, role: Role, relation: string): number {
  const endpoint = ENDPOINTS.get(operationId);
  if (!endpoint) throw new Error(`${operationId}: no endpoint declares it`);
  const { access } = endpoint;
  if (role === 'anonymous' && access !== 'anyone') return 401;
  if (role === 'member' && access === 'admin') return 403;
  if (role === 'member' && access === 'self-or-admin' && relation !== 'themself') return 403;
  const [task, item] = relation.split('; ');
  if (slot.startsWith('body ')) return MISSING.has(relation) ? 400 : (endpoint.status ?? 200);
  if (MISSING.has(task!)) return 404;
  if (role === 'member' && access === 'task-viewer' && task === 'a task not assigned to them') {
    return 404;
  }
  if (item !== undefined && item !== 'its own item') return 404;
  // The world's items were added by admins: an assignee renames only the items they added.
  if (operationId === 'renameChecklistItem' && role === 'member') return 403;
  return endpoint.status ?? 200;
}

// Operations that take no id (sign-up, sign-in, the caller's own profile, lists scoped to the
// caller, admin-only lists and reports, health and docs) have nothing to attack here: who may
// call them at all is the permission matrix's (permissions.test.ts), generated from the same
// declarations.

interface Slot {
  /** `path id`, `path id+itemId`, `body assignedTo`. */
  name: string;
  /** Where the slot is: its path (or body field), for messages. */
  key: string;
  /** A body field that holds a list of ids (`assignedTo`), not one. */
  list?: boolean;
}

/** The id slots of an operation, read from the document: UUID path parameters and body fields. */
function idSlotsOf(path: string, operation: ReturnType<typeof operationsOf>[number]['operation']) {
  const slots: Slot[] = [];
  const pathIds = (operation.parameters ?? [])
    .filter(
      (param) => param.in === 'path' && isUuid(param.schema) && !BEARER_SECRETS.has(param.name),
    )
    .map((param) => param.name);
  if (pathIds.length > 0) {
    const part = pathIds.join('+');
    slots.push({ name: `path ${part}`, key: `path ${path} ${part}` });
  }
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const body = resolve(bodySchema) as { properties?: Record<string, unknown> } | undefined;
  for (const [field, schema] of Object.entries(body?.properties ?? {})) {
    if (HANDOVER_FIELDS.has(`${operation.operationId} ${field}`)) continue;
    const resolved = resolve(schema) as { items?: unknown } | undefined;
    if (isUuid(resolved) || isUuid(resolve(resolved?.items))) {
      slots.push({ name: `body ${field}`, key: `body ${field}`, list: !isUuid(resolved) });
    }
  }
  return slots;
}

function resolve(schema: unknown): unknown {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  return ref ? resolve(resolvePointer(DOC, ref)) : schema;
}

function isUuid(schema: unknown): boolean {
  return (resolve(schema) as { format?: string } | undefined)?.format === 'uuid';
}

interface Case {
  operationId: string;
  method: string;
  path: string;
  slot: Slot;
  kind: IdKind;
  caller: Caller;
  target: Target;
}

/** Every (operation, slot, caller, target), and every gap in the policy or the slot table. */
function generateCases() {
  const cases: Case[] = [];
  const gaps: string[] = [];
  for (const { method, path, operation } of operationsOf(DOC)) {
    const slots = idSlotsOf(path, operation);
    for (const slot of slots) {
      const kind = kindOf(path, slot.name);
      if (!kind) {
        gaps.push(`${operation.operationId}: nothing says what "${slot.key}" names (kindOf)`);
        continue;
      }
      for (const caller of CALLERS) {
        for (const target of TARGETS[kind]) {
          cases.push({
            operationId: operation.operationId,
            method,
            path,
            slot,
            kind,
            caller,
            target,
          });
        }
      }
    }
  }
  return { cases, gaps };
}

const { cases: CASES, gaps: GAPS } = generateCases();

/**
 * Bodies a derived one would not do. changeUser: active already, so allowed or refused nothing
 * about the team changes (a role would: it could demote the admins the next cases call as).
 */
const BODY_OVERRIDES: Record<string, object> = { changeUser: { active: true } };

/**
 * A valid body for the operation, so that the status says who may do it, not what was sent:
 * made from its declaration (test/helpers/derived-request.ts; a checklist from the path's task,
 * M1 as the assignee), with the id under attack in its body slot.
 */
function bodyFor(c: Case, world: World, ids: Record<string, string>): object | undefined {
  const endpoint = ENDPOINTS.get(c.operationId);
  if (!endpoint?.body) return undefined;
  const body =
    BODY_OVERRIDES[c.operationId] ??
    (derivedBody(endpoint, { task: c.target.task?.(world), assignee: world.M1.id }) as object);
  if (!c.slot.name.startsWith('body ')) return body;
  const field = c.slot.name.slice('body '.length);
  return { ...body, [field]: c.slot.list ? [ids[field]] : ids[field] };
}

/** Where the ids go: path parameters by name; for a body slot, the path's task is T1. */
function urlFor(c: Case, world: World, ids: Record<string, string>): string {
  return c.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? world.T1._id);
}

/**
 * An accepted change that removes a user or a task, or changes who a task is assigned to,
 * changes what later cases mean: the next case then gets a fresh team. Renames, ticks and status
 * changes leave every relation as it was.
 */
function reshapesTheTeam(c: Case): boolean {
  // An added checklist item changes what a reorder must list.
  return (
    c.method === 'delete' ||
    c.slot.name === 'body assignedTo' ||
    c.operationId === 'addChecklistItem'
  );
}

function send(api: Api, method: string, url: string, session?: Session, body?: object) {
  const verb = method as 'get' | 'put' | 'post' | 'patch' | 'delete';
  let req = api[verb](url);
  if (session) req = req.set(session.auth);
  return body === undefined ? req : req.send(body);
}

type Api = ReturnType<typeof request>;

function describeCase(c: Case, role: Role, relation: string) {
  return `${c.caller} (${role}) → ${c.target.label} (${relation})`;
}

describe(`no caller reaches what is not theirs (${ENGINE})`, () => {
  let ctx: TestContext;
  let server: Server;
  let api: Api;
  let world: World;
  /** The digest after the previous case, while nothing else has changed the data since. */
  let known: Record<string, string> | undefined;
  const checker = createContractChecker(DOC);

  let digester: ReturnType<typeof databaseDigester>;
  const digest = async () => (await digester()).byTable;

  beforeAll(async () => {
    ctx = await createTestContext();
    digester = databaseDigester(ctx.db, ctx.engine);
    // One listening server for every request (supertest would otherwise start one per request).
    server = http.createServer(ctx.app).listen(0, '127.0.0.1');
    api = request(server);
    world = await buildWorld(ctx);
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
  });

  it('covers every documented operation and every id it takes', () => {
    const unexplained = new Set<string>();
    for (const c of CASES) {
      // The relation of a target to a caller does not depend on the world's ids.
      try {
        expectedStatus(
          c.operationId,
          c.slot.name,
          ROLE_OF[c.caller],
          c.target.relation(world, c.caller),
        );
      } catch (error) {
        unexplained.add((error as Error).message);
      }
    }
    expect([...GAPS, ...unexplained]).toEqual([]);
  });

  it('refuses what matters most, as the declarations say', () => {
    // A member reaching another member's task, an admin's account, or admin-only changes.
    expect(expectedStatus('getTask', 'path id', 'member', 'a task not assigned to them')).toBe(404);
    expect(
      expectedStatus(
        'updateChecklistItem',
        'path id+itemId',
        'member',
        'a task assigned to them; an item of another task',
      ),
    ).toBe(404);
    expect(expectedStatus('getUser', 'path id', 'member', 'another admin')).toBe(403);
    expect(expectedStatus('deleteTask', 'path id', 'member', 'a task assigned to them')).toBe(403);
    expect(expectedStatus('updateUser', 'path id', 'anonymous', 'themself')).toBe(401);
    expect(expectedStatus('createTask', 'body assignedTo', 'admin', 'a deleted user')).toBe(400);
  });

  it('includes the attacks that matter most', () => {
    const has = (operationId: string, caller: Caller, relation: string) =>
      CASES.some(
        (c) =>
          c.operationId === operationId &&
          c.caller === caller &&
          c.target.relation(world, c.caller) === relation,
      );
    // A member ticking an item of another member's task, or an item of another task.
    expect(has('updateChecklistItem', 'M1', 'a task not assigned to them; its own item')).toBe(
      true,
    );
    expect(
      has('updateChecklistItem', 'M1', 'a task assigned to them; an item of another task'),
    ).toBe(true);
    expect(has('updateTaskStatus', 'M1', 'a task not assigned to them')).toBe(true);
    expect(has('getTask', 'M2', 'a task not assigned to them')).toBe(true);
    expect(has('updateTask', 'M1', 'a task assigned to them')).toBe(true);
    expect(has('getUser', 'M1', 'another member')).toBe(true);
    expect(has('createTask', 'A1', 'a deleted user')).toBe(true);
    expect(has('createTask', 'A1', 'an admin')).toBe(true);
  });

  for (const c of CASES) {
    it(`${c.operationId} (${c.slot.name}): ${c.caller} → ${c.target.label}`, async () => {
      const role = ROLE_OF[c.caller];
      const relation = c.target.relation(world, c.caller);
      const expected = expectedStatus(c.operationId, c.slot.name, role, relation);
      const ids = c.target.ids(world);
      const url = urlFor(c, world, ids);
      const body = bodyFor(c, world, ids);
      const before = known ?? (await digest());
      const session = sessionOf(world, c.caller);
      const upload = uploadFieldOf(ENDPOINTS.get(c.operationId)!);
      const res: Response = upload
        ? await send(api, c.method, url, session).attach(upload, Buffer.from('IDOR'), {
            filename: 'idor.bin',
            contentType: 'application/octet-stream',
          })
        : await send(api, c.method, url, session, body);
      const where = `${describeCase(c, role, relation)}: ${c.method.toUpperCase()} ${url}`;
      expect(res.status, `${where} → ${JSON.stringify(res.body)}`).toBe(expected);
      checker.check(res, c.operationId);
      const after = await digest();
      known = after;
      if (res.status >= 400 || c.method === 'get') {
        // A refusal, or a read: not one row of any table changed.
        expect(after, `${where} changed data`).toEqual(before);
      }
      if (res.status < 400 && c.slot.name.startsWith('path ')) {
        // A task, or what was added to it (a comment, a file: their taskId).
        const answered = (res.body?.task ?? res.body) as
          { _id?: string; taskId?: string } | undefined;
        const named = answered?.taskId ?? answered?._id;
        if (named) expect(named).toBe(ids.id);
      }
      if (res.status < 400 && reshapesTheTeam(c)) {
        world = await buildWorld(ctx);
        known = undefined;
      }
    });
  }

  describe('ids smuggled in where the API takes none', () => {
    it('a member cannot widen their task list or dashboard with ids in the query', async () => {
      const { M1, M2 } = world;
      const mine = (await api.get('/api/tasks').set(M1.auth).expect(200)).body;
      const theirs = `assignedTo=${M2.id}&userId=${M2.id}&assigneeId=${M2.id}&id=${M2.id}`;
      const tricked = await api.get(`/api/tasks?${theirs}`).set(M1.auth).expect(200);
      expect(tricked.body).toEqual(mine);
      const ids = tricked.body.tasks.map((task: Task) => task._id).sort();
      expect(ids).toEqual([world.T1._id, world.T12._id].sort());

      const dashboard = (await api.get('/api/tasks/user-dashboard-data').set(M1.auth)).body;
      const trickedDashboard = await ctx.api
        .get(`/api/tasks/user-dashboard-data?${theirs}`)
        .set(M1.auth)
        .expect(200);
      expect(trickedDashboard.body).toEqual(dashboard);
    });

    it("a member's profile update with another user's id in the body changes only themself", async () => {
      const { M1, M2 } = world;
      const userRow = (id: string) =>
        ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const before = await digest();
      const victim = await userRow(M2.id);
      const res = await ctx.api
        .put('/api/auth/profile')
        .set(M1.auth)
        .send({ _id: M2.id, id: M2.id, userId: M2.id, name: 'Renamed through the profile' })
        .expect(200);
      expect(res.body._id).toBe(M1.id);
      expect(await userRow(M2.id)).toEqual(victim);
      expect((await userRow(M1.id)).name).toBe('Renamed through the profile');
      const after = await digest();
      const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
      // data_version: the ETag validator moves with the rename (issue 19); events: the
      // user.updated event of the member's own account (to them and the admins).
      expect(changed).toEqual(['data_version', 'events', 'users']);
      world = await buildWorld(ctx);
      known = undefined;
    });

    it("checklist items sent with another task's item ids change only the path's task", async () => {
      const { M1, T1, T2 } = world;
      const before = await api.get(`/api/tasks/${T2._id}`).set(world.A1.auth).expect(200);
      const res = await ctx.api
        .put(`/api/tasks/${T1._id}/todo`)
        .set(M1.auth)
        .send({
          todoChecklist: T1.todoChecklist.map((item, index) => ({
            text: item.text,
            completed: true,
            _id: T2.todoChecklist[index]!._id,
            id: T2.todoChecklist[index]!._id,
            taskId: T2._id,
            task_id: T2._id,
          })),
        })
        .expect(200);
      expect(res.body.task._id).toBe(T1._id);
      expect(res.body.task.todoChecklist.map((item: { _id: string }) => item._id)).toEqual(
        T1.todoChecklist.map((item) => item._id),
      );
      const after = await api.get(`/api/tasks/${T2._id}`).set(world.A1.auth).expect(200);
      expect(after.body).toEqual(before.body);
      world = await buildWorld(ctx);
      known = undefined;
    });
  });
});
