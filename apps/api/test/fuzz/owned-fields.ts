import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TASK_STATUSES } from '@task-manager/shared';
import type { World } from '../helpers/security-world.js';
import { PROTO_PAYLOADS } from './hostile-arbitraries.js';
import type { Json } from './json.js';

/**
 * Mass assignment: the fields the server computes or owns, with the values an attacker would
 * send next to valid ones, to check that an accepted request stores none of them.
 */

/** A date long before any row: a stored timestamp must never become it. */
export const LONG_AGO = '2001-01-01T00:00:00.000Z';
/** A hash of the right form: a stored password hash must never become it. */
export const FAKE_HASH = '$2b$04$abcdefghijklmnopqrstuuJ0r4q0Jc0k4l6Yh2yZbXh2Xb9Xb9Xb9';

/** A prototype pollution attempt to add to a body, or nothing. */
export const pollution = fc.option(fc.constantFrom(...PROTO_PAYLOADS), { nil: undefined });

/** Any subset of the user fields the server owns, with values an attacker would pick. */
export const ownedUserFields = (world: World) =>
  fc.record(
    {
      role: fc.constantFrom('admin', 'ADMIN', 'owner'),
      isAdmin: fc.constantFrom(true, 'true', 1),
      active: fc.constantFrom(false, 'false', 0),
      email: fc.constant(world.A2.email),
      token_version: fc.integer({ min: -5, max: 1000 }),
      tokenVersion: fc.integer({ min: -5, max: 1000 }),
      createdBy: fc.constant(world.A1.id),
      _id: fc.constantFrom(world.M2.id, world.A1.id, randomUUID()),
      id: fc.constantFrom(world.M2.id, world.A1.id, randomUUID()),
      password_hash: fc.constant(FAKE_HASH),
      passwordHash: fc.constant(FAKE_HASH),
      created_at: fc.constant(LONG_AGO),
      createdAt: fc.constant(LONG_AGO),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, Json>>;

/** Any subset of the task fields the server computes or owns. */
export const ownedTaskFields = (world: World) =>
  fc.record(
    {
      progress: fc.oneof(fc.integer({ min: -100, max: 1000 }), fc.constant('100')),
      status: fc.constantFrom(...TASK_STATUSES, 'Done'),
      completedTodoCount: fc.integer({ min: -5, max: 500 }),
      completed_todo_count: fc.integer({ min: -5, max: 500 }),
      createdBy: fc.constantFrom(world.M1.id, world.A2.id, randomUUID()),
      created_by: fc.constantFrom(world.M1.id, world.A2.id),
      _id: fc.uuid(),
      id: fc.uuid(),
      createdAt: fc.constant(LONG_AGO),
      created_at: fc.constant(LONG_AGO),
      updatedAt: fc.constant(LONG_AGO),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, Json>>;

/** A checklist every schema accepts: the valid part of a mass-assignment body. */
export const plainChecklist = fc.array(
  fc.record({
    text: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim().length > 0),
    completed: fc.boolean(),
  }),
  { minLength: 1, maxLength: 6 },
);
