import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import request from 'supertest';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import { createOpenApiDocument } from '../../src/openapi/document.js';
import { databaseDigest } from '../helpers/db-digest.js';
import { buildTask, type Session } from '../helpers/factories.js';
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
 * the one POLICY gives. A refused request must change nothing (a digest of every row of every
 * table, before and after). A documented operation or id the policy does not cover fails the
 * first test below, so a new endpoint cannot slip past this file.
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
type IdKind = 'user' | 'task' | 'task+item' | 'image' | 'assignee';

/**
 * Where ids go, by what they name. A path parameter or a body field in the document that is a
 * UUID and is not listed here fails the coverage test.
 */
const ID_SLOTS: Record<string, IdKind> = {
  'path /api/users/{id} id': 'user',
  'path /api/tasks/{id} id': 'task',
  'path /api/tasks/{id}/todo id': 'task',
  'path /api/tasks/{id}/status id': 'task',
  'path /api/tasks/{id}/todo/{itemId} id+itemId': 'task+item',
  'path /api/images/{id} id': 'image',
  'body assignedTo': 'assignee',
};

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
};

/**
 * The policy. `anyone` matches every caller and `anything` every target; exactly one row must
 * match each case, so the table stays unambiguous. Rows that refuse are listed like the rows
 * that allow.
 */
type PolicyRow = readonly [
  operation: string,
  slot: string,
  caller: Role | 'anyone',
  target: string,
  status: number,
];
// prettier-ignore
const POLICY: PolicyRow[] = [
  // operation             id in           caller       target                                                  status
  ['getImage',             'path id',      'anyone',    'a stored image',                                       200],
  ['getImage',             'path id',      'anyone',    'no such image',                                        404],

  ['getUser',              'path id',      'anonymous', 'anything',                                             401],
  ['getUser',              'path id',      'member',    'themself',                                             200],
  ['getUser',              'path id',      'member',    'another member',                                       403],
  ['getUser',              'path id',      'member',    'another admin',                                        403],
  ['getUser',              'path id',      'member',    'a deleted user',                                       403],
  ['getUser',              'path id',      'member',    'no such user',                                         403],
  ['getUser',              'path id',      'admin',     'themself',                                             200],
  ['getUser',              'path id',      'admin',     'another member',                                       200],
  ['getUser',              'path id',      'admin',     'another admin',                                        200],
  ['getUser',              'path id',      'admin',     'a deleted user',                                       404],
  ['getUser',              'path id',      'admin',     'no such user',                                         404],

  ['updateUser',           'path id',      'anonymous', 'anything',                                             401],
  ['updateUser',           'path id',      'member',    'themself',                                             403],
  ['updateUser',           'path id',      'member',    'another member',                                       403],
  ['updateUser',           'path id',      'member',    'another admin',                                        403],
  ['updateUser',           'path id',      'member',    'a deleted user',                                       403],
  ['updateUser',           'path id',      'member',    'no such user',                                         403],
  ['updateUser',           'path id',      'admin',     'themself',                                             200],
  ['updateUser',           'path id',      'admin',     'another member',                                       200],
  ['updateUser',           'path id',      'admin',     'another admin',                                        200],
  ['updateUser',           'path id',      'admin',     'a deleted user',                                       404],
  ['updateUser',           'path id',      'admin',     'no such user',                                         404],

  ['deleteUser',           'path id',      'anonymous', 'anything',                                             401],
  ['deleteUser',           'path id',      'member',    'themself',                                             403],
  ['deleteUser',           'path id',      'member',    'another member',                                       403],
  ['deleteUser',           'path id',      'member',    'another admin',                                        403],
  ['deleteUser',           'path id',      'member',    'a deleted user',                                       403],
  ['deleteUser',           'path id',      'member',    'no such user',                                         403],
  // There is a second admin, so an admin may delete themself.
  ['deleteUser',           'path id',      'admin',     'themself',                                             200],
  ['deleteUser',           'path id',      'admin',     'another member',                                       200],
  ['deleteUser',           'path id',      'admin',     'another admin',                                        200],
  ['deleteUser',           'path id',      'admin',     'a deleted user',                                       404],
  ['deleteUser',           'path id',      'admin',     'no such user',                                         404],

  // A task a member may not see is "not found", exactly as an unknown id.
  ['getTask',              'path id',      'anonymous', 'anything',                                             401],
  ['getTask',              'path id',      'member',    'a task assigned to them',                              200],
  ['getTask',              'path id',      'member',    'a task not assigned to them',                          404],
  ['getTask',              'path id',      'member',    'no such task',                                         404],
  ['getTask',              'path id',      'admin',     'a task not assigned to them',                          200],
  ['getTask',              'path id',      'admin',     'no such task',                                         404],

  ['updateTask',           'path id',      'anonymous', 'anything',                                             401],
  ['updateTask',           'path id',      'member',    'a task assigned to them',                              403],
  ['updateTask',           'path id',      'member',    'a task not assigned to them',                          403],
  ['updateTask',           'path id',      'member',    'no such task',                                         403],
  ['updateTask',           'path id',      'admin',     'a task not assigned to them',                          200],
  ['updateTask',           'path id',      'admin',     'no such task',                                         404],

  ['deleteTask',           'path id',      'anonymous', 'anything',                                             401],
  ['deleteTask',           'path id',      'member',    'a task assigned to them',                              403],
  ['deleteTask',           'path id',      'member',    'a task not assigned to them',                          403],
  ['deleteTask',           'path id',      'member',    'no such task',                                         403],
  ['deleteTask',           'path id',      'admin',     'a task not assigned to them',                          200],
  ['deleteTask',           'path id',      'admin',     'no such task',                                         404],

  ['updateChecklist',      'path id',      'anonymous', 'anything',                                             401],
  ['updateChecklist',      'path id',      'member',    'a task assigned to them',                              200],
  ['updateChecklist',      'path id',      'member',    'a task not assigned to them',                          404],
  ['updateChecklist',      'path id',      'member',    'no such task',                                         404],
  ['updateChecklist',      'path id',      'admin',     'a task not assigned to them',                          200],
  ['updateChecklist',      'path id',      'admin',     'no such task',                                         404],

  ['updateTaskStatus',     'path id',      'anonymous', 'anything',                                             401],
  ['updateTaskStatus',     'path id',      'member',    'a task assigned to them',                              200],
  ['updateTaskStatus',     'path id',      'member',    'a task not assigned to them',                          404],
  ['updateTaskStatus',     'path id',      'member',    'no such task',                                         404],
  ['updateTaskStatus',     'path id',      'admin',     'a task not assigned to them',                          200],
  ['updateTaskStatus',     'path id',      'admin',     'no such task',                                         404],

  // The item must belong to the task the path names, and the caller must see that task.
  ['updateChecklistItem',  'path id+itemId', 'anonymous', 'anything',                                           401],
  ['updateChecklistItem',  'path id+itemId', 'member',  'a task assigned to them; its own item',                200],
  ['updateChecklistItem',  'path id+itemId', 'member',  'a task assigned to them; an item of another task',     404],
  ['updateChecklistItem',  'path id+itemId', 'member',  'a task assigned to them; no such item',                404],
  ['updateChecklistItem',  'path id+itemId', 'member',  'a task not assigned to them; its own item',            404],
  ['updateChecklistItem',  'path id+itemId', 'member',  'a task not assigned to them; an item of another task', 404],
  ['updateChecklistItem',  'path id+itemId', 'member',  'a task not assigned to them; no such item',            404],
  ['updateChecklistItem',  'path id+itemId', 'member',  'no such task; an item of another task',                404],
  ['updateChecklistItem',  'path id+itemId', 'admin',   'a task not assigned to them; its own item',            200],
  ['updateChecklistItem',  'path id+itemId', 'admin',   'a task not assigned to them; an item of another task', 404],
  ['updateChecklistItem',  'path id+itemId', 'admin',   'a task not assigned to them; no such item',            404],
  ['updateChecklistItem',  'path id+itemId', 'admin',   'no such task; an item of another task',                404],

  // Admins are team members too and may be assigned (the dashboards count their tasks).
  ['createTask',           'body assignedTo', 'anonymous', 'anything',                                          401],
  ['createTask',           'body assignedTo', 'member', 'anything',                                             403],
  ['createTask',           'body assignedTo', 'admin',  'a member',                                             201],
  ['createTask',           'body assignedTo', 'admin',  'an admin',                                             201],
  ['createTask',           'body assignedTo', 'admin',  'a deleted user',                                       400],
  ['createTask',           'body assignedTo', 'admin',  'no such user',                                         400],

  ['updateTask',           'body assignedTo', 'anonymous', 'anything',                                          401],
  ['updateTask',           'body assignedTo', 'member', 'anything',                                             403],
  ['updateTask',           'body assignedTo', 'admin',  'a member',                                             200],
  ['updateTask',           'body assignedTo', 'admin',  'an admin',                                             200],
  ['updateTask',           'body assignedTo', 'admin',  'a deleted user',                                       400],
  ['updateTask',           'body assignedTo', 'admin',  'no such user',                                         400],
];

/**
 * Operations that take no id, and why that is safe. Each is still covered elsewhere in this
 * file or its own test file; listing it here is a decision, not an omission.
 */
const WITHOUT_IDS: Record<string, string> = {
  register: 'creates a new account; a role or id in the body is ignored (fuzz.test.ts)',
  login: 'names an account by e-mail and proves it with the password',
  getProfile: 'the caller themself, from the token',
  updateProfile: 'the caller themself; ids in the body are ignored (below)',
  logout: 'ends the token the request carries, no other',
  uploadImage: 'stores a new image; it belongs to no one',
  listUsers: 'admins only (permissions.test.ts)',
  createUser: 'admins only (permissions.test.ts)',
  listTasks: "the caller's own scope; ids in the query are ignored (below)",
  getDashboard: 'admins only (permissions.test.ts)',
  getMyDashboard: "the caller's own scope; ids in the query are ignored (below)",
  exportTasksReport: 'admins only (permissions.test.ts)',
  exportUsersReport: 'admins only (permissions.test.ts)',
  getHealth: 'public, no data',
  getReadiness: 'public, no data',
  getOpenApiDocument: 'public, no data',
  getApiReference: 'public, no data',
};

interface Slot {
  /** As in POLICY: `path id`, `path id+itemId`, `body assignedTo`. */
  name: string;
  /** As in ID_SLOTS. */
  key: string;
}

/** The id slots of an operation, read from the document: UUID path parameters and body fields. */
function idSlotsOf(path: string, operation: ReturnType<typeof operationsOf>[number]['operation']) {
  const slots: Slot[] = [];
  const pathIds = (operation.parameters ?? [])
    .filter((param) => param.in === 'path' && isUuid(param.schema))
    .map((param) => param.name);
  if (pathIds.length > 0) {
    const part = pathIds.join('+');
    slots.push({ name: `path ${part}`, key: `path ${path} ${part}` });
  }
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const body = resolve(bodySchema) as { properties?: Record<string, unknown> } | undefined;
  for (const [field, schema] of Object.entries(body?.properties ?? {})) {
    const resolved = resolve(schema) as { items?: unknown } | undefined;
    if (isUuid(resolved) || isUuid(resolve(resolved?.items))) {
      slots.push({ name: `body ${field}`, key: `body ${field}` });
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
    const listedWithout = Object.hasOwn(WITHOUT_IDS, operation.operationId);
    if (slots.length === 0 && !listedWithout) {
      gaps.push(`${operation.operationId}: takes no id, and is not listed in WITHOUT_IDS`);
    }
    if (slots.length > 0 && listedWithout) {
      gaps.push(`${operation.operationId}: takes ids, yet is listed in WITHOUT_IDS`);
    }
    for (const slot of slots) {
      const kind = ID_SLOTS[slot.key];
      if (!kind) {
        gaps.push(`${operation.operationId}: no ID_SLOTS entry for "${slot.key}"`);
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

/** The one policy row for a case: none or several is a gap in the table. */
function policyRow(operationId: string, slot: string, role: Role, relation: string) {
  const rows = POLICY.filter(
    ([operation, rowSlot, caller, target]) =>
      operation === operationId &&
      rowSlot === slot &&
      (caller === role || caller === 'anyone') &&
      (target === relation || target === 'anything'),
  );
  if (rows.length !== 1) {
    throw new Error(
      `${rows.length === 0 ? 'no' : 'more than one'} POLICY row for ` +
        `['${operationId}', '${slot}', '${role}', '${relation}']`,
    );
  }
  return rows[0]!;
}

const { cases: CASES, gaps: GAPS } = generateCases();

/** A valid body for the operation, so that the status says who may do it, not what was sent. */
function bodyFor(c: Case, world: World, ids: Record<string, string>): object | undefined {
  const task = c.target.task?.(world);
  switch (c.operationId) {
    case 'updateUser':
      return { name: 'Renamed by the IDOR test' };
    case 'updateTask':
      return c.slot.name === 'body assignedTo'
        ? { assignedTo: [ids.assignedTo] }
        : { title: 'Retitled by the IDOR test' };
    case 'createTask':
      return buildTask([ids.assignedTo!]);
    case 'updateChecklist':
      // The same items, the first one ticked: what a member may send.
      return {
        todoChecklist: (task?.todoChecklist ?? [{ text: 'Anything' }]).map((item, index) => ({
          text: item.text,
          completed: index === 0,
        })),
      };
    case 'updateChecklistItem':
      return { completed: true };
    case 'updateTaskStatus':
      return { status: 'Completed' };
    default:
      return undefined;
  }
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
  return c.method === 'delete' || c.slot.name === 'body assignedTo';
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

  const digest = async () => (await databaseDigest(ctx.db, ctx.engine)).byTable;

  beforeAll(async () => {
    ctx = await createTestContext();
    // One listening server for every request (supertest would otherwise start one per request).
    server = http.createServer(ctx.app).listen(0, '127.0.0.1');
    api = request(server);
    world = await buildWorld(ctx);
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
  });

  it('covers every documented operation and every id it takes, with one policy row each', () => {
    const missingRows = new Set<string>();
    for (const c of CASES) {
      const role = ROLE_OF[c.caller];
      // The relation of a target to a caller does not depend on the world's ids.
      try {
        policyRow(c.operationId, c.slot.name, role, c.target.relation(world, c.caller));
      } catch (error) {
        missingRows.add((error as Error).message);
      }
    }
    expect([...GAPS, ...missingRows]).toEqual([]);
    const documented = new Set(operationsOf(DOC).map(({ operation }) => operation.operationId));
    const stale = [...Object.keys(WITHOUT_IDS), ...POLICY.map(([operation]) => operation)].filter(
      (operation) => !documented.has(operation),
    );
    expect(stale, 'rows for operations the document no longer has').toEqual([]);
  });

  it('uses every policy row (none is left over from an old API)', () => {
    const used = new Set(
      CASES.map((c) =>
        policyRow(
          c.operationId,
          c.slot.name,
          ROLE_OF[c.caller],
          c.target.relation(world, c.caller),
        ),
      ),
    );
    expect(POLICY.filter((row) => !used.has(row))).toEqual([]);
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
      const [, , , , expected] = policyRow(c.operationId, c.slot.name, role, relation);
      const ids = c.target.ids(world);
      const url = urlFor(c, world, ids);
      const body = bodyFor(c, world, ids);
      const before = known ?? (await digest());
      const res: Response = await send(api, c.method, url, sessionOf(world, c.caller), body);
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
        const answered = (res.body?.task ?? res.body) as { _id?: string } | undefined;
        if (answered?._id) expect(answered._id).toBe(ids.id);
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
      expect(changed).toEqual(['users']);
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
