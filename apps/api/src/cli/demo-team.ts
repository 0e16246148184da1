import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createTaskSchema, createUserSchema, type CreateTaskInput } from '@task-manager/shared';
import { createPasswordHasher } from '../auth/passwords.js';
import { migrateToLatest, openConfiguredDatabase, type DatabaseHandle } from '../db/database.js';
import { imagePath } from '../images/links.js';
import { storeImage } from '../images/service.js';
import { runDueReminders } from '../scheduler/due-reminders.js';
import { countOverdueTasks, countTasks } from '../tasks/repository.js';
import { TaskService } from '../tasks/service.js';
import { UserService } from '../users/service.js';
import { renderAvatar } from './avatar.js';
import { demoAdmin, demoMembers, demoTasks, type DemoPerson } from './demo-content.js';
import { seededRandom, shuffle } from './seeded-random.js';
import { CliError, parseCliEnv, type CliCommand, type CliOutput } from './support.js';

export const SEED_USAGE = `Usage: pnpm seed:demo [--force]

Adds a demo team to the database the server is configured for (DATA_DIR or DATABASE_URL):
an admin, 8 members with profile photos and about 60 tasks. Runs the migrations first.

  --force    the database already has users: DELETE every user, task and image first`;

const DAY_MS = 86_400_000;

type ChecklistState = 'none done' | 'some done' | 'all done';

export interface DemoSeedOptions {
  force: boolean;
  bcryptCost: number;
  now?: Date;
}

export interface DemoSeedResult {
  admin: { email: string; password: string };
  member: { email: string; password: string };
  users: number;
  tasks: number;
}

/** A password nobody else knows, printed once. */
function demoPassword(): string {
  return `demo-${randomBytes(9).toString('base64url')}`;
}

async function countRows(handle: DatabaseHandle, table: 'users' | 'tasks'): Promise<number> {
  const row = await handle.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Everything but the settings (the admin invite token stays). */
async function deleteAllData(handle: DatabaseHandle): Promise<void> {
  await handle.db.transaction().execute(async (trx) => {
    for (const table of [
      'attachments',
      'todo_items',
      'task_assignees',
      'tasks',
      'users',
      'images',
    ] as const) {
      await trx.deleteFrom(table).execute();
    }
  });
}

export async function seedDemoTeam(
  handle: DatabaseHandle,
  options: DemoSeedOptions,
  out: CliOutput,
): Promise<DemoSeedResult> {
  const existingUsers = await countRows(handle, 'users');
  if (existingUsers > 0) {
    if (!options.force) {
      throw new CliError(
        `This database already has ${existingUsers} user(s), so no demo team was added. ` +
          `To replace everything with the demo team, run again with --force: it DELETES every ` +
          `user, task and image first.`,
      );
    }
    const existingTasks = await countRows(handle, 'tasks');
    await deleteAllData(handle);
    out.info(`--force: deleted ${existingUsers} user(s) and ${existingTasks} task(s).`);
  }

  const now = options.now ?? new Date();
  const random = seededRandom(20261122);
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const users = new UserService(handle.db, createPasswordHasher(options.bcryptCost));
  const tasks = new TaskService(handle.db);

  const adminPassword = demoPassword();
  const memberPassword = demoPassword();
  const addPerson = async (person: DemoPerson, role: 'admin' | 'member', index: number) => {
    // Through the image store of the upload endpoint: re-encoded, stored in the database, and
    // linked by its relative path like an uploaded photo; creating the user claims it.
    const photo = await renderAvatar(person.name, person.colour, index % 2 === 0 ? 'png' : 'webp');
    const image = await storeImage(handle.db, photo);
    const input = createUserSchema.parse({
      name: person.name,
      email: person.email,
      password: role === 'admin' ? adminPassword : memberPassword,
      role,
      profileImageUrl: imagePath(image.id),
    });
    return users.create(input);
  };
  const admin = await addPerson(demoAdmin, 'admin', 0);
  const members = [];
  for (const [index, person] of demoMembers.entries()) {
    members.push(await addPerson(person, 'member', index + 1));
  }

  const states: ChecklistState[] = ['none done', 'some done', 'all done'];
  for (const [index, demo] of demoTasks.entries()) {
    // The first three cover every state; the rest are drawn at random.
    const roll = random();
    const state =
      states[index] ?? (roll < 0.35 ? 'none done' : roll < 0.7 ? 'some done' : 'all done');
    const total = demo.checklist.length;
    const done = state === 'none done' ? 0 : state === 'all done' ? total : between(1, total - 1);
    // Due dates around today: finished work mostly in the past, open work on both sides,
    // so some of it is overdue (the first two tasks always are).
    const dueInDays =
      index < 2 ? -3 - index * 4 : state === 'all done' ? between(-25, 10) : between(-12, 30);
    const shuffled = shuffle(members, random);
    const input: CreateTaskInput = {
      title: demo.title,
      description: demo.description,
      priority: demo.priority,
      dueDate: new Date(now.getTime() + dueInDays * DAY_MS).toISOString().slice(0, 10),
      assignedTo: shuffled.slice(0, between(1, 3)).map((member) => member.id),
      todoChecklist: demo.checklist.map((text, item) => ({ text, completed: item < done })),
      attachments: demo.attachments ?? [],
    };
    // The service computes progress and status from the checklist, as for the API.
    const task = await tasks.create(admin.id, createTaskSchema.parse(input));

    // Backdate it, so the dashboards show work that happened over the last weeks.
    const createdDaysAgo = dueInDays < 0 ? -dueInDays + between(3, 15) : between(0, 20);
    const createdAt = new Date(now.getTime() - createdDaysAgo * DAY_MS - between(0, 8) * 3_600_000);
    const updatedAt = new Date(
      Math.min(now.getTime(), createdAt.getTime() + (done > 0 ? between(1, 5) * DAY_MS : 0)),
    );
    await handle.db
      .updateTable('tasks')
      .set({ created_at: createdAt.toISOString(), updated_at: updatedAt.toISOString() })
      .where('id', '=', task._id)
      .execute();
  }

  // Assigning the tasks told each member (notifications written with each task); the due
  // reminders add what is due tomorrow or overdue, as the scheduler would.
  await runDueReminders(handle.db, now);

  const firstMember = demoMembers[0]!;
  return {
    admin: { email: demoAdmin.email, password: adminPassword },
    member: { email: firstMember.email, password: memberPassword },
    users: await countRows(handle, 'users'),
    tasks: await countRows(handle, 'tasks'),
  };
}

/** Counts by status for the closing summary, with the dashboard's own counters. */
async function statusCounts(handle: DatabaseHandle, now: Date) {
  const [{ byStatus }, overdue] = await Promise.all([
    countTasks(handle.db, {}),
    countOverdueTasks(handle.db, {}, now.toISOString()),
  ]);
  return `${byStatus.Pending} pending, ${byStatus['In Progress']} in progress, ${byStatus.Completed} completed, ${overdue} overdue`;
}

export const seedDemoCommand: CliCommand = async (args, env, out) => {
  let values: { force: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // --url (the address for the photo links) went away: photo links are relative now.
    throw new CliError(`${error instanceof Error ? error.message : error}\n\n${SEED_USAGE}`);
  }
  if (values.help) return out.info(SEED_USAGE);
  const config = parseCliEnv(env);

  const handle = openConfiguredDatabase(config);
  try {
    await migrateToLatest(handle);
    const result = await seedDemoTeam(
      handle,
      { force: values.force, bcryptCost: config.BCRYPT_COST },
      out,
    );
    const where = handle.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    out.info(
      `Demo team added to ${where} (${handle.location}): ${result.users} users, ${result.tasks} tasks ` +
        `(${await statusCounts(handle, new Date())}).`,
    );
    out.info(`Open http://localhost:${config.PORT} and sign in as`);
    out.info(`  admin:  ${result.admin.email}  password: ${result.admin.password}`);
    out.info(
      `  member: ${result.member.email}  password: ${result.member.password}  (every member has this password)`,
    );
  } finally {
    await handle.close();
  }
};
