import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectPath, expectToast, expectVisible } from './support/ui.js';

/**
 * An admin reports on the team: the Team Member page counts each member's tasks by status, and
 * both Download Report buttons give spreadsheets whose rows match the data.
 */
const e2e = setupE2E();
const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'tm-e2e-downloads-'));
afterAll(() => fs.rmSync(downloads, { recursive: true, force: true }));

let admin: SignedInUser;
let mia: SignedInUser;
let max: SignedInUser;
let nina: SignedInUser;
let tasks: ApiTask[];

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  mia = await e2e.api.registerMember('Mia Member');
  max = await e2e.api.registerMember('Max Member');
  nina = await e2e.api.registerMember('Nina New');
  const make = (title: string, assignedTo: string[], steps = 2) =>
    e2e.api.createTask(admin.token, {
      title,
      description: `About ${title}`,
      priority: title.includes('urgent') ? 'High' : 'Medium',
      dueDate: '2031-09-01',
      assignedTo,
      todoChecklist: Array.from({ length: steps }, (_, i) => ({ text: `Step ${i + 1}` })),
    });
  // Mia: 1 Pending, 1 In Progress, 1 Completed. Max: 1 Pending (shared), 1 Completed. Nina: none.
  const shared = await make('Shared urgent task', [mia.user._id, max.user._id]);
  const miaBusy = await make('Mia busy task', [mia.user._id]);
  await e2e.api.tickFirst(mia.token, miaBusy, 1);
  const miaDone = await make('Mia done task', [mia.user._id], 1);
  await e2e.api.tickFirst(mia.token, miaDone, 1);
  const maxDone = await make('Max done task', [max.user._id], 1);
  await e2e.api.tickFirst(max.token, maxDone, 1);
  tasks = (await e2e.api.listTasks(admin.token)).tasks;
  expect(tasks.map((task) => task._id).sort()).toEqual(
    [shared, miaBusy, miaDone, maxDone].map((task) => task._id).sort(),
  );
});

/** Clicks the button and returns the downloaded file, saved under its suggested name. */
async function download(page: Page, button: Locator): Promise<{ name: string; file: string }> {
  const [done] = await Promise.all([
    page.waitForEvent('download', { timeout: 15_000 }),
    button.click(),
  ]);
  const name = done.suggestedFilename();
  const file = path.join(downloads, `${Date.now()}-${name}`);
  await done.saveAs(file);
  expect(await done.failure()).toBeNull();
  return { name, file };
}

/** Every row of the first sheet as plain values (row 1 is the header). */
async function readSheet(file: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error(`${file} has no sheet`);
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    // ExcelJS rows are 1-based: values[0] is always empty.
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/** The card of one member on the Team Member page: the list item with their e-mail. */
function memberCard(page: Page, email: string): Locator {
  return page.getByRole('main').getByRole('listitem').filter({ hasText: email });
}

/** The number shown next to a status label on a card, whichever side it is on. */
function countNextTo(text: string, label: string): number | undefined {
  const flat = text.replace(/\s+/g, ' ');
  const after = new RegExp(`${label}(?! Progress)\\s*:?\\s*(\\d+)`).exec(flat);
  const before = new RegExp(`(\\d+)\\s*${label}`).exec(flat);
  const match = after ?? before;
  return match ? Number(match[1]) : undefined;
}

describe('an admin reporting on the team', () => {
  it('sees each member with their task counts on the Team Member page', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Team Member' }).click();
    await expectPath(page, '/admin/users');

    const members = await e2e.api.listMembers(admin.token);
    expect(members.map((member) => member.name)).toEqual(['Max Member', 'Mia Member', 'Nina New']);
    const expected: Record<string, [number, number, number]> = {
      'Mia Member': [1, 1, 1],
      'Max Member': [1, 0, 1],
      'Nina New': [0, 0, 0],
    };
    for (const member of members) {
      expect([member.pendingTasks, member.inProgressTasks, member.completedTasks]).toEqual(
        expected[member.name],
      );
      const card = memberCard(page, member.email);
      await expectVisible(card, `the card of ${member.name}`);
      await expectVisible(card.getByText(member.name, { exact: true }), `${member.name}'s name`);
      await expectVisible(card.getByRole('img', { name: member.name }), `${member.name}'s avatar`);
      const text = await card.innerText();
      expect(
        [
          countNextTo(text, 'Pending'),
          countNextTo(text, 'In Progress'),
          countNextTo(text, 'Completed'),
        ],
        `the counts on ${member.name}'s card: ${JSON.stringify(text)}`,
      ).toEqual(expected[member.name]);
    }
    // Everyone is on the page (issue 18): the admin too, marked Admin.
    const adminCard = memberCard(page, admin.user.email);
    await expectVisible(adminCard, "the admin's card");
    await expectVisible(adminCard.getByText('Admin', { exact: true }), 'the Admin mark');
  });

  it('downloads user_details.xlsx from Team Member with one row per person', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/users');
    const { name, file } = await download(
      page,
      page.getByRole('button', { name: 'Download Report' }),
    );
    expect(name).toBe('user_details.xlsx');
    const [header, ...rows] = await readSheet(file);
    expect(header).toEqual([
      'Name',
      'Email',
      'Role',
      'Total Assigned Tasks',
      'Pending',
      'In Progress',
      'Completed',
    ]);
    // Everyone is listed (issue 18): the admin too, with no task of their own.
    expect(rows).toEqual([
      ['Ada Admin', admin.user.email, 'admin', 0, 0, 0, 0],
      ['Max Member', max.user.email, 'member', 2, 1, 0, 1],
      ['Mia Member', mia.user.email, 'member', 3, 1, 1, 1],
      ['Nina New', nina.user.email, 'member', 0, 0, 0, 0],
    ]);
  });

  it('downloads tasks_report.xlsx from Manage Tasks with one row per task', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await expectVisible(page.getByRole('tab', { name: /^All\s*4$/ }), 'the loaded list');
    const { name, file } = await download(
      page,
      page.getByRole('button', { name: 'Download Report' }),
    );
    expect(name).toBe('tasks_report.xlsx');
    await expectToast(page, 'Task report downloaded successfully');

    const [header, ...rows] = await readSheet(file);
    expect(header).toEqual([
      'Task ID',
      'Title',
      'Description',
      'Priority',
      'Status',
      'Progress',
      'Due Date',
      'Created On',
      'Assigned To',
    ]);
    const byId = new Map(rows.map((row) => [row[0], row]));
    expect([...byId.keys()].sort()).toEqual(tasks.map((task) => task._id).sort());
    for (const task of tasks) {
      const row = byId.get(task._id)!;
      expect(row.slice(1, 6)).toEqual([
        task.title,
        task.description,
        task.priority,
        task.status,
        `${task.progress}%`,
      ]);
      expect((row[6] as Date).toISOString().slice(0, 10)).toBe('2031-09-01');
      expect((row[7] as Date).toISOString().slice(0, 10)).toBe(task.createdAt.slice(0, 10));
      expect(row[8]).toBe(
        task.assignedTo.map((person) => `${person.name} (${person.email})`).join(', '),
      );
    }
  });
});
