import { progressOf, statusOf, type TaskPriority } from '@task-manager/shared';
import type { Insertable, Selectable } from 'kysely';
import type {
  AttachmentsTable,
  TaskAssigneesTable,
  TasksTable,
  TodoItemsTable,
  UsersTable,
} from '../db/tables.js';
import { shuffle } from './seeded-random.js';

/**
 * Rows for a load test: many users and tasks with the spreads of a busy team, generated from a
 * seeded random source so that the same seed gives the same data (dates move with `now`).
 */

export const LOAD_EMAIL_DOMAIN = 'load.test';
export const LOAD_ADMIN_EMAIL = `admin@${LOAD_EMAIL_DOMAIN}`;
/** Every load-test account has this password; it is printed and documented, never secret. */
export const LOAD_PASSWORD = 'load-test-password';

export function loadMemberEmail(n: number): string {
  return `member${n}@${LOAD_EMAIL_DOMAIN}`;
}

const DAY_MS = 86_400_000;

// prettier-ignore
const firstNames = [
  'Ada', 'Ben', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi',
  'Liam', 'Maya', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Victor',
  'Wen', 'Ximena', 'Yusuf', 'Zoe',
];
// prettier-ignore
const lastNames = [
  'Adams', 'Bauer', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ivanova',
  'Jensen', 'Kowalski', 'Lopez', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Rossi', 'Silva',
  'Tanaka', 'Novak', 'Weber', 'Yilmaz',
];
// prettier-ignore
const verbs = [
  'Review', 'Update', 'Draft', 'Prepare', 'Fix', 'Plan', 'Migrate', 'Audit', 'Test', 'Document',
  'Organise', 'Renew', 'Clean up', 'Publish', 'Estimate',
];
// prettier-ignore
const subjects = [
  'the quarterly budget', 'the onboarding guide', 'the release notes', 'the customer survey',
  'the login page', 'supplier contracts', 'the backup schedule', 'the office move',
  'the pricing page', 'the support macros', 'the hiring plan', 'the security checklist',
  'the newsletter', 'the product roadmap', 'invoice templates', 'the trade fair stand',
  'the data retention policy', 'the mobile app icons', 'the team offsite', 'the API limits',
];
// prettier-ignore
const contexts = [
  '', '', '', 'for Q3', 'for the Berlin office', 'before the launch', 'for the board meeting',
  'with the design team', 'for new customers', '(second round)',
];
const sentences = [
  'Keep it short and link the sources.',
  'The last version is in the shared folder.',
  'Ask finance before changing any figures.',
  'Customers mentioned this twice in the last survey.',
  'Coordinate with the people on the list before the due date.',
  'Use the template from last year as a starting point.',
  'Anything unclear goes into the weekly meeting notes.',
  'Legal wants to see the final draft before it goes out.',
  'This blocks two other tasks, so please start early.',
  'Write down what you decide and why.',
];
// prettier-ignore
const checklistTexts = [
  'Collect the figures', 'Write a first draft', 'Get feedback from the team', 'Fix the comments',
  'Check the numbers twice', 'Book a room', 'Send the invitations', 'Update the shared folder',
  'Ask legal for approval', 'Publish the final version', 'Tell the support team',
  'Archive the old version', 'Take screenshots', 'Order the materials', 'Test on a phone',
  'Write the summary', 'Plan the follow-up', 'Close the ticket',
];
const attachmentHosts = ['https://files.example.com/load', 'https://docs.example.com/d'];

export type LoadUser = Pick<UsersTable, 'id' | 'email' | 'role'>;

export interface TaskBatch {
  tasks: TasksTable[];
  assignees: Array<Insertable<TaskAssigneesTable>>;
  items: TodoItemsTable[];
  attachments: AttachmentsTable[];
}

/** A random (version 4) UUID drawn from the seeded source, so ids repeat with the seed. */
export function seededUuid(random: () => number): string {
  const word = () => (Math.floor(random() * 2 ** 32) >>> 0).toString(16).padStart(8, '0');
  const hex = word() + word() + word() + word();
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

function between(min: number, max: number, random: () => number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One admin and `members` members, all with the one password hash (hashing is the slow part). */
export function generateUsers(
  members: number,
  passwordHash: string,
  random: () => number,
  now: Date,
): Selectable<UsersTable>[] {
  const joined = () => new Date(now.getTime() - random() * 365 * DAY_MS).toISOString();
  const user = (email: string, name: string, role: UsersTable['role']): Selectable<UsersTable> => {
    const createdAt = joined();
    return {
      id: seededUuid(random),
      name,
      email,
      password_hash: passwordHash,
      role,
      profile_image_url: null,
      token_version: 0,
      language: null,
      active: 1,
      created_at: createdAt,
      updated_at: createdAt,
    };
  };
  const users = [user(LOAD_ADMIN_EMAIL, 'Load Admin', 'admin')];
  for (let n = 1; n <= members; n++) {
    const name = `${pick(firstNames, random)} ${pick(lastNames, random)}`;
    users.push(user(loadMemberEmail(n), name, 'member'));
  }
  return users;
}

/** Low, Medium, High in about 30/50/20. */
function drawPriority(random: () => number): TaskPriority {
  const roll = random();
  return roll < 0.3 ? 'Low' : roll < 0.8 ? 'Medium' : 'High';
}

/**
 * How much of the checklist is done: past-due work is mostly finished, future work mostly not,
 * so some tasks are overdue and every status is common.
 */
function drawDoneCount(total: number, overdue: boolean, random: () => number): number {
  const roll = random();
  const [allDone, noneDone] = overdue ? [0.55, 0.15] : [0.15, 0.45];
  if (roll < allDone) return total;
  if (roll < allDone + noneDone) return 0;
  return between(1, total - 1, random);
}

/**
 * `count` tasks created by `adminId`, each with 1-4 of `memberIds`, 3-8 checklist items, due
 * between 60 days ago and 90 days ahead, created over the past year; about 10% with links.
 * Progress, status and the done count follow the checklist by the service's rule.
 */
export function generateTaskBatch(
  count: number,
  adminId: string,
  memberIds: readonly string[],
  random: () => number,
  now: Date,
): TaskBatch {
  const batch: TaskBatch = { tasks: [], assignees: [], items: [], attachments: [] };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const yearAgo = now.getTime() - 365 * DAY_MS;
  for (let t = 0; t < count; t++) {
    const id = seededUuid(random);
    // A calendar date, stored the way the API stores "YYYY-MM-DD": midnight UTC.
    const due = today + between(-60, 90, random) * DAY_MS;
    const createdAt = yearAgo + random() * (Math.min(now.getTime(), due) - yearAgo);

    const texts = shuffle(checklistTexts, random).slice(0, between(3, 8, random));
    const done = drawDoneCount(texts.length, due < now.getTime(), random);
    const items = texts.map((text, position) => ({ text, completed: position < done }));
    const progress = progressOf(items);
    const createdAtText = new Date(createdAt).toISOString();
    const updatedAt = done > 0 ? createdAt + random() * (now.getTime() - createdAt) : createdAt;

    batch.tasks.push({
      id,
      title: `${pick(verbs, random)} ${pick(subjects, random)} ${pick(contexts, random)}`.trim(),
      description: Array.from({ length: between(1, 3, random) }, () =>
        pick(sentences, random),
      ).join(' '),
      priority: drawPriority(random),
      status: statusOf(progress),
      progress,
      completed_todo_count: done,
      due_date: new Date(due).toISOString(),
      created_by: adminId,
      created_at: createdAtText,
      updated_at: new Date(updatedAt).toISOString(),
    });

    const assignees = new Set<string>();
    const wanted = Math.min(between(1, 4, random), memberIds.length);
    while (assignees.size < wanted) assignees.add(pick(memberIds, random));
    [...assignees].forEach((userId, position) =>
      // The task's time given here spares SQLite's trigger a second write per assignment.
      batch.assignees.push({
        task_id: id,
        user_id: userId,
        position,
        task_created_at: createdAtText,
      }),
    );
    items.forEach((item, position) =>
      batch.items.push({
        id: seededUuid(random),
        task_id: id,
        position,
        text: item.text,
        created_by: null,
        completed: item.completed ? 1 : 0,
      }),
    );
    const links = random() < 0.1 ? between(1, 2, random) : 0;
    for (let position = 0; position < links; position++) {
      const file = seededUuid(random).slice(0, 8);
      batch.attachments.push({
        id: seededUuid(random),
        task_id: id,
        position,
        url: `${pick(attachmentHosts, random)}/${file}.pdf`,
      });
    }
  }
  return batch;
}
