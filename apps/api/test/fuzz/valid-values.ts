import fc from 'fast-check';
import {
  LANGUAGES,
  TASK_LIST_VIEWS,
  TASK_PRIORITIES,
  TASK_SORTS,
  TASK_STATUSES,
} from '@task-manager/shared';
import type { World } from '../helpers/security-world.js';
import { INVITE_TOKEN } from '../helpers/test-app.js';
import { hostileLeaf, hostileText, hostileTree, PROTO_PAYLOADS } from './hostile-arbitraries.js';
import { HOSTILE_LINKS } from './hostile-values.js';
import { toJson, type Json } from './json.js';

/**
 * Valid values, by field name: a body built from them reaches past validation, so the hostile
 * text some of them carry reaches the database and the answers.
 */

/** The ids and cursors a request may use, gathered once the test world exists. */
export interface Pools {
  world: World;
  /** Users an admin may change or delete freely (never a caller of this file). */
  users: string[];
  disposableUsers: string[];
  tasks: string[];
  disposableTasks: string[];
  items: string[];
  images: string[];
  /** Labels, which tasks may carry and an admin may change. */
  labels: string[];
  /** Invitations an admin may revoke. */
  invites: string[];
  /** Comments (by M1 on T1) and files (by M1 on T1). */
  comments: string[];
  files: string[];
  /** A real `nextCursor` of each list, when the list gives one. */
  cursors: string[];
}

let counter = 0;
/** A number never handed out before in this run: for e-mail addresses that must be new. */
export const uniqueNumber = () => counter++;
const uniqueEmail = fc.constant(null).map(() => `fuzz-${Date.now()}-${uniqueNumber()}@example.com`);

const checklistArb = fc.array(
  fc.record(
    {
      text: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), hostileText(1, 500)),
      completed: fc.boolean(),
    },
    { requiredKeys: ['text'] },
  ),
  { minLength: 1, maxLength: 6 },
);

/** Valid values for a body or query field, by its name; undefined for a name it does not know. */
export function validField(
  field: string,
  pools: Pools,
  place: 'body' | 'query' = 'body',
): fc.Arbitrary<Json> | undefined {
  const { world } = pools;
  const tasks = [world.T1, world.T2, world.T12];
  const text = (min: number, max: number, usual: fc.Arbitrary<string>) =>
    fc.oneof({ weight: 2, arbitrary: usual }, { weight: 1, arbitrary: hostileText(min, max) });
  const samples: Record<string, () => fc.Arbitrary<Json>> = {
    name: () =>
      text(1, 100, fc.constantFrom('Ada Lovelace', 'Зоя Космодемьянская', '李雷', 'Ana María')),
    email: () =>
      fc.oneof(
        uniqueEmail,
        fc.constantFrom(world.M2.email, world.A2.email),
        fc
          .constantFrom("o'reilly--", 'x\u0000y', '😀', '<script>', 'a\ud800b', '%00')
          .map((local) => `${local}-${uniqueNumber()}@example.com`),
      ),
    password: () =>
      fc.oneof(
        fc.constant(world.M2.password),
        text(8, 128, fc.string({ minLength: 8, maxLength: 40 })),
      ),
    currentPassword: () =>
      fc.oneof(fc.constant(world.M1.password), text(1, 100, fc.string({ maxLength: 20 }))),
    newPassword: () => text(8, 128, fc.string({ minLength: 8, maxLength: 40 })),
    // This server's image (claimed by the first request that uses it, then refused as taken),
    // one that does not exist, and links to other servers (refused since 2026-11-25).
    profileImageUrl: () =>
      fc.constantFrom(
        `/api/images/${world.imageId}`,
        '/api/images/00000000-0000-4000-8000-000000000000',
        'https://example.com/me.png',
        'http://example.com/a.jpg',
        '',
        null,
        ...HOSTILE_LINKS,
      ),
    adminInviteToken: () => fc.constantFrom(INVITE_TOKEN, Number(INVITE_TOKEN), '000000', null),
    role: () => fc.constantFrom('admin', 'member'),
    language: () => fc.constantFrom(...LANGUAGES),
    title: () => text(1, 200, fc.string({ minLength: 1, maxLength: 60 })),
    description: () => text(1, 10_000, fc.string({ minLength: 1, maxLength: 200 })),
    dueDate: () =>
      fc.oneof(
        fc
          .date({ min: new Date('1970-01-02'), max: new Date('9999-12-30'), noInvalidDate: true })
          .map((date) => date.toISOString()),
        fc.constantFrom('2030-02-28', '2030-01-01T10:00:00+05:30'),
      ),
    assignedTo: () =>
      fc.subarray([world.M1.id, world.M2.id, world.A2.id], { minLength: 1 }) as fc.Arbitrary<Json>,
    todoChecklist: () =>
      fc.oneof(
        checklistArb as fc.Arbitrary<Json>,
        // The texts a task has, ticked at random: what a member may send.
        fc
          .tuple(fc.constantFrom(...tasks), fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }))
          .map(([task, ticks]) =>
            task.todoChecklist.map((item, index) => ({
              text: item.text,
              completed: ticks[index]!,
            })),
          ),
      ),
    priority: () => fc.constantFrom(...TASK_PRIORITIES),
    attachments: () =>
      fc.array(
        fc.constantFrom('https://example.com/spec.pdf', 'example.com/a', '', ...HOSTILE_LINKS),
        {
          maxLength: 3,
        },
      ),
    completed: () => fc.boolean(),
    status: () =>
      place === 'query'
        ? fc.constantFrom(...TASK_STATUSES, 'All', '')
        : fc.constantFrom(...TASK_STATUSES),
    limit: () => fc.constantFrom('1', '2', '100', '500'),
    // Real cursors, and cursors of the right form around hostile values (clients can forge them).
    cursor: () =>
      fc.oneof(
        pools.cursors.length > 0 ? fc.constantFrom(...pools.cursors) : fc.constant('AAAA'),
        fc
          .tuple(fc.oneof(hostileText(1, 64), fc.date().map(String)), fc.uuid())
          .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
        hostileTree.map((value) => Buffer.from(toJson(value)).toString('base64url').slice(0, 1024)),
      ),
    search: () => text(1, 100, fc.constantFrom('Member', 'one', 'ç', '%', '_')),
    // Finding work (issue 22): labels, and the task list's filters and sorts.
    color: () => fc.constantFrom('#000000', '#A1b2C3', '#ffffff'),
    labels: () => fc.subarray(pools.labels),
    label: () => fc.subarray(pools.labels, { minLength: 1 }).map((ids) => ids.join(',')),
    assignee: () => fc.constantFrom('me', world.M1.id, world.M2.id, world.A1.id),
    due: () => fc.constantFrom('overdue', 'today', 'week', 'later'),
    dueFrom: () =>
      fc.constantFrom(
        '2020-01-01T00:00:00Z',
        '2031-06-01T00:00:00.000Z',
        '2031-06-01T02:00:00+02:00',
      ),
    dueBefore: () =>
      fc.constantFrom(
        '2020-01-01T00:00:00Z',
        '2031-07-01T00:00:00.000Z',
        '2099-12-31T23:59:59-05:00',
      ),
    unread: () => fc.constantFrom('true', 'false'),
    scope: () => fc.constantFrom('mine', 'all'),
    tz: () => fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'),
    sort: () => fc.constantFrom(...TASK_SORTS),
    order: () => fc.constantFrom('asc', 'desc'),
    view: () => fc.constantFrom(...TASK_LIST_VIEWS),
    // Running a team (issue 18).
    q: () => text(1, 100, fc.constantFrom('Member', 'one', 'ç', '%', '_')),
    active: () => (place === 'query' ? fc.constantFrom('true', 'false') : fc.boolean()),
    reassignTo: () => fc.constantFrom(world.M2.id, world.A2.id, world.deleted.id),
    expiresInDays: () => fc.integer({ min: 1, max: 30 }),
    // Tokens of the right form: unknown ones (the real ones are shown once, to their admin).
    token: () => fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    invite: () => fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    // Working together on a task (issue 16).
    body: () =>
      text(1, 10_000, fc.constantFrom('Looks **good**', '[x](javascript:alert(1))', '@A')),
    mentions: () =>
      fc.subarray([world.A1.id, world.A2.id, world.M1.id, world.M2.id]) as fc.Arbitrary<Json>,
    text: () => text(1, 500, fc.string({ minLength: 1, maxLength: 30 })),
    // Live updates (issue 17): tickets of the right form (unknown ones), and log positions.
    ticket: () => fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    lastEventId: () => fc.constantFrom('0', '1', '5', '999999999'),
    ids: () =>
      fc.constantFrom(...tasks).chain((task) =>
        fc.shuffledSubarray(
          task.todoChecklist.map((item) => item._id),
          { minLength: task.todoChecklist.length },
        ),
      ) as fc.Arbitrary<Json>,
  };
  // Plain objects would answer for `constructor` and friends.
  return Object.hasOwn(samples, field) ? samples[field]!() : undefined;
}

/** A field's value: mostly valid, sometimes hostile, sometimes left out (undefined). */
export function fieldValue(
  field: string,
  pools: Pools,
  where: string,
): fc.Arbitrary<Json | undefined> {
  const valid = validField(field, pools);
  if (!valid) throw new Error(`${where}: the fuzzer has no valid values for "${field}"`);
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: hostileLeaf },
    { weight: 1, arbitrary: hostileTree },
    { weight: 1, arbitrary: valid.map((value) => [value] as Json) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_PAYLOADS) },
  );
}
