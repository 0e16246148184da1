import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { TaskStatus } from '@task-manager/shared';
import { createPasswordHasher } from '../auth/passwords.js';
import { migrateToLatest, openConfiguredDatabase, type DatabaseHandle } from '../db/database.js';
import { insertInChunks } from './bulk-insert.js';
import {
  generateTaskBatch,
  generateUsers,
  LOAD_ADMIN_EMAIL,
  LOAD_EMAIL_DOMAIN,
  LOAD_PASSWORD,
  loadMemberEmail,
} from './load-content.js';
import { seededRandom } from './seeded-random.js';
import { CliError, parseCliEnv, type CliCommand, type CliOutput } from './support.js';

export const SEED_LOAD_USAGE = `Usage: pnpm seed:load [--tasks N] [--users M] [--seed S] [--force]

Adds load-test data to the database the server is configured for (DATA_DIR or DATABASE_URL):
an admin ${LOAD_ADMIN_EMAIL}, M members member1@${LOAD_EMAIL_DOMAIN} … memberM@${LOAD_EMAIL_DOMAIN}
and N tasks with 1-4 assignees and 3-8 checklist items each. Every account's password is
${LOAD_PASSWORD}. Runs the migrations first; other data in the database stays.

  --tasks N  how many tasks (default 100000)
  --users M  how many members (default 1000)
  --seed S   the same seed gives the same users and tasks (default 1)
  --force    load-test users already exist: DELETE them and the tasks they created first`;

/** Tasks generated and written per transaction: bounded memory, and few commits. */
const TASKS_PER_TRANSACTION = 10_000;
/** Big runs say how far they got, every this many tasks. */
const PROGRESS_EVERY = 100_000;

export interface LoadSeedOptions {
  tasks: number;
  members: number;
  seed: number;
  force: boolean;
  bcryptCost: number;
  now?: Date;
}

export interface LoadSeedResult {
  users: number;
  tasks: number;
  byStatus: Record<TaskStatus, number>;
  assignments: number;
  checklistItems: number;
  attachments: number;
  seconds: number;
  /** CPU time of this process: on a busy machine it says more about the cost than `seconds`. */
  cpuSeconds: number;
}

const loadEmailPattern = `%@${LOAD_EMAIL_DOMAIN}`;

async function countLoadUsers(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email', 'like', loadEmailPattern)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The load-test users and every task they created (children go by ON DELETE CASCADE). */
async function deleteLoadData(handle: DatabaseHandle): Promise<number> {
  return handle.db.transaction().execute(async (trx) => {
    const loadUserIds = trx
      .selectFrom('users')
      .select('id')
      .where('email', 'like', loadEmailPattern);
    const deleted = await trx
      .deleteFrom('tasks')
      .where('created_by', 'in', loadUserIds)
      .executeTakeFirst();
    await trx.deleteFrom('users').where('email', 'like', loadEmailPattern).execute();
    return Number(deleted.numDeletedRows);
  });
}

export async function seedLoadData(
  handle: DatabaseHandle,
  options: LoadSeedOptions,
  out: CliOutput,
): Promise<LoadSeedResult> {
  const existing = await countLoadUsers(handle);
  if (existing > 0) {
    if (!options.force) {
      throw new CliError(
        `This database already has ${existing} load-test user(s) (*@${LOAD_EMAIL_DOMAIN}), so ` +
          `nothing was added. To replace them, run again with --force: it DELETES those users ` +
          `and every task they created first.`,
      );
    }
    const deletedTasks = await deleteLoadData(handle);
    out.info(`--force: deleted ${existing} load-test user(s) and ${deletedTasks} task(s).`);
  }

  const started = performance.now();
  const startedCpu = process.cpuUsage();
  if (handle.engine === 'sqlite') {
    // Random UUID keys land all over the indexes: with SQLite's default 2 MB page cache nearly
    // every insert reads and writes pages from disk. This connection only, for this run.
    await sql`pragma cache_size = -262144`.execute(handle.db);
  }
  const now = options.now ?? new Date();
  const random = seededRandom(options.seed);
  // One hash for everybody: at the server's cost, bcrypt takes a good fraction of a second.
  const passwordHash = await createPasswordHasher(options.bcryptCost).hash(LOAD_PASSWORD);
  const users = generateUsers(options.members, passwordHash, random, now);
  const [admin, ...members] = users;
  const memberIds = members.map((member) => member.id);
  await handle.db
    .transaction()
    .execute((trx) => insertInChunks(trx, handle.engine, 'users', users));

  const result: LoadSeedResult = {
    users: users.length,
    tasks: 0,
    byStatus: { Pending: 0, 'In Progress': 0, Completed: 0 },
    assignments: 0,
    checklistItems: 0,
    attachments: 0,
    seconds: 0,
    cpuSeconds: 0,
  };
  while (result.tasks < options.tasks) {
    const count = Math.min(TASKS_PER_TRANSACTION, options.tasks - result.tasks);
    const batch = generateTaskBatch(count, admin!.id, memberIds, random, now);
    await handle.db.transaction().execute(async (trx) => {
      await insertInChunks(trx, handle.engine, 'tasks', batch.tasks);
      await insertInChunks(trx, handle.engine, 'task_assignees', batch.assignees);
      await insertInChunks(trx, handle.engine, 'todo_items', batch.items);
      await insertInChunks(trx, handle.engine, 'attachments', batch.attachments);
    });
    for (const task of batch.tasks) result.byStatus[task.status]++;
    result.assignments += batch.assignees.length;
    result.checklistItems += batch.items.length;
    result.attachments += batch.attachments.length;
    result.tasks += count;
    if (result.tasks % PROGRESS_EVERY === 0 && result.tasks < options.tasks) {
      out.info(`  ${result.tasks} of ${options.tasks} tasks…`);
    }
  }
  if (handle.engine === 'postgres') {
    // Each task written moves its counters (task_counts, task_due_days, data_version: triggers),
    // and on PostgreSQL each move is a new row version that nothing can prune before its batch
    // commits: after 1,000,000 tasks, 49 MB of file for task_counts' 9 rows, which VACUUM empties
    // but keeps, and every count read them all (21 ms a task page). Rewritten compact, at once.
    await sql`vacuum full task_counts, task_due_days, data_version`.execute(handle.db);
    // Autovacuum would gather statistics on the new rows within minutes; gather them now, so that
    // a benchmark right after seeding sees the query plans a running server would. SQLite keeps
    // no statistics unless asked (the app never asks), so it is left as a real database would be.
    await sql`analyze`.execute(handle.db);
  }
  // Each batch added b-trees to SQLite's full-text index; a running server merges them into one
  // within the hour (scheduler/search-upkeep.ts). Merge them now, for the same reason.
  if (handle.engine === 'sqlite') {
    await sql`insert into task_search (task_search) values ('optimize')`.execute(handle.db);
  }
  result.seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(startedCpu);
  result.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return result;
}

/** A whole number of at least `min`, or a clear refusal naming the option. */
function countOption(name: string, value: string | undefined, fallback: number, min: number) {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min) {
    throw new CliError(`--${name} must be a whole number of at least ${min}, not "${value}".`);
  }
  return number;
}

export const seedLoadCommand: CliCommand = async (args, env, out) => {
  const { values } = parseArgs({
    args,
    options: {
      tasks: { type: 'string' },
      users: { type: 'string' },
      seed: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return out.info(SEED_LOAD_USAGE);
  const options = {
    tasks: countOption('tasks', values.tasks, 100_000, 0),
    members: countOption('users', values.users, 1_000, 1),
    seed: countOption('seed', values.seed, 1, 0),
    force: values.force,
  };
  const config = parseCliEnv(env);

  const handle = openConfiguredDatabase(config);
  try {
    await migrateToLatest(handle);
    const result = await seedLoadData(handle, { ...options, bcryptCost: config.BCRYPT_COST }, out);
    const where = handle.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const { Pending, Completed } = result.byStatus;
    out.info(
      `Added to ${where} (${handle.location}) in ${result.seconds.toFixed(1)} s ` +
        `(${result.cpuSeconds.toFixed(1)} s of CPU): ` +
        `${result.users} users (1 admin, ${result.users - 1} members), ${result.tasks} tasks ` +
        `(${Pending} pending, ${result.byStatus['In Progress']} in progress, ${Completed} completed), ` +
        `${result.assignments} assignments, ${result.checklistItems} checklist items, ` +
        `${result.attachments} attachment links.`,
    );
    out.info(
      `Sign in as ${LOAD_ADMIN_EMAIL} or ${loadMemberEmail(1)} … ` +
        `${loadMemberEmail(result.users - 1)}, password: ${LOAD_PASSWORD}`,
    );
  } finally {
    await handle.close();
  }
};
