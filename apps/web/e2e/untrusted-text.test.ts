import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectVisible } from './support/ui.js';

/**
 * Whatever people type is shown as text, never run as markup: a task whose title, description
 * and checklist hold <img onerror> and <script>, and a member whose name holds HTML, appear
 * literally on every page that shows them, and no element of theirs ends up in the page.
 */
const e2e = setupE2E();

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=1</script>';
const TITLE = `Launch ${IMG} ${SCRIPT}`;
const DESCRIPTION = `Read this: ${SCRIPT} and then ${IMG}`;
const ITEMS = [`Draft ${IMG}`, `Review ${SCRIPT}`];
const MEMBER_NAME = `<b>Bold</b> ${IMG} Mallory`;

let admin: SignedInUser;
let member: SignedInUser;
let task: ApiTask;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  member = await e2e.api.registerMember(MEMBER_NAME);
  task = await e2e.api.createTask(admin.token, {
    title: TITLE,
    description: DESCRIPTION,
    assignedTo: [member.user._id],
    todoChecklist: ITEMS.map((text) => ({ text })),
  });
});

/** The texts are on the page as written, and none of their markup became an element. */
async function expectShownAsText(page: Page, texts: string[]) {
  for (const text of texts) {
    await expectVisible(page.getByText(text, { exact: true }), JSON.stringify(text));
  }
  const injected = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: unknown }).__xss,
    imagesFromText: document.querySelectorAll('img[src="x"], [onerror]').length,
    scriptsFromText: [...document.scripts].filter((script) => script.text.includes('__xss')).length,
    boldFromName: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'Bold')
      .length,
  }));
  expect(injected).toEqual({
    xss: undefined,
    imagesFromText: 0,
    scriptsFromText: 0,
    boldFromName: 0,
  });
}

describe('untrusted text', () => {
  it('the API stored it as sent', () => {
    expect(task.title).toBe(TITLE);
    expect(task.description).toBe(DESCRIPTION);
    expect(task.todoChecklist.map((item) => item.text)).toEqual(ITEMS);
    expect(member.user.name).toBe(MEMBER_NAME);
  });

  it('is text on the admin task list', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await expectShownAsText(page, [TITLE, DESCRIPTION]);
  });

  it('is text on the admin dashboard', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectShownAsText(page, [TITLE]);
  });

  it('is text on the team page', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/users');
    await expectShownAsText(page, [MEMBER_NAME]);
  });

  it('is text on the task details, for the member', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto(`/user/task-details/${task._id}`);
    await expectShownAsText(page, [TITLE, DESCRIPTION, ...ITEMS]);
  });

  it("is text on the member's dashboard and in their menu", async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/dashboard');
    await expectShownAsText(page, [TITLE]);
    await expectVisible(page.getByRole('navigation').getByText(MEMBER_NAME, { exact: true }));
    await expectShownAsText(page, []);
  });
});
