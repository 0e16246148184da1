import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupE2E } from './support/e2e.js';
import { expectHidden, expectToast, expectVisible } from './support/ui.js';

/** Working together on a task in the browser: comments, mentions, history and files. */
const e2e = setupE2E();

/** An admin, a member and a task of the member's; `admin` names the admin (unique per test). */
async function world(adminName = 'Ada Admin') {
  const admin = await e2e.api.registerAdmin(adminName);
  const member = await e2e.api.registerMember('Mia Member');
  const task = await e2e.api.createTask(admin.token, {
    title: 'Plan the launch',
    assignedTo: [member.user._id],
    todoChecklist: [{ text: 'Draft' }, { text: 'Review' }],
  });
  return { admin, member, task };
}

describe('working together on a task', () => {
  it('a comment with HTML and a javascript: link shows as text; a web link opens safely', async () => {
    const { member, task } = await world();
    const { page } = await e2e.openPage({ token: member.token });
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(`/user/task-details/${task._id}`);
    const box = page.getByRole('combobox', { name: 'Add a comment' });
    await box.fill(
      [
        '<img src=x onerror="alert(1)"> <script>alert(2)</script>',
        '[click me](javascript:alert(3)) and [the docs](https://example.com/docs) and **bold**',
      ].join('\n\n'),
    );
    await page.getByRole('button', { name: 'Comment' }).click();
    const timeline = page.getByRole('list', { name: 'Comments and activity' });
    await expectVisible(timeline.getByText('<script>alert(2)</script>'), 'the script as text');
    await expectVisible(timeline.getByText('<img src=x onerror="alert(1)">'), 'the img as text');
    expect(await timeline.locator('img[src="x"], script').count()).toBe(0);
    expect(await timeline.locator('a[href^="javascript:"]').count()).toBe(0);
    await expectVisible(timeline.getByText('click me'), 'the unsafe link as plain text');
    const docs = timeline.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('rel')).toContain('noopener');
    expect(await timeline.locator('strong', { hasText: 'bold' }).count()).toBe(1);
    expect(dialogs).toBe(0);
  });

  it('@ offers the people who can see the task, and a tick shows in the history', async () => {
    const { member, task } = await world('Zed Mentionable');
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto(`/user/task-details/${task._id}`);
    const box = page.getByRole('combobox', { name: 'Add a comment' });
    await box.pressSequentially('Thanks @Zed');
    await page.getByRole('option', { name: 'Zed Mentionable' }).click();
    await box.pressSequentially('for the plan');
    await page.getByRole('button', { name: 'Comment' }).click();
    const timeline = page.getByRole('list', { name: 'Comments and activity' });
    await expectVisible(timeline.getByText('Thanks @Zed Mentionable for the plan'), 'the comment');
    const comments = await e2e.api.request<Array<{ mentions: string[] }>>(
      'GET',
      `/api/tasks/${task._id}/comments`,
      member.token,
    );
    expect(comments.at(-1)?.mentions).toHaveLength(1);

    await page.getByRole('checkbox', { name: 'Draft' }).click();
    await expectVisible(timeline.getByText(/ticked “Draft”/), 'the tick in the history');
  });

  it('a name typed in full mentions its person; one who cannot see the task is said to be left out', async () => {
    const { admin, task } = await world('Yara Typer');
    // Another admin (admins see every task), and a member who is not on this one.
    const colleague = await e2e.api.registerAdmin('Yusuf Typed');
    const outsider = await e2e.api.registerMember('Olaf Outside');
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto(`/admin/tasks/${task._id}`);
    const box = page.getByRole('combobox', { name: 'Add a comment' });
    // Typed, not picked from the list: the name is still resolved on posting.
    await box.fill('Thanks @Yusuf Typed, please ask @Olaf');
    await page.getByRole('button', { name: 'Comment' }).click();
    await expectVisible(
      page.getByText('Not notified: @Olaf (only people who can see this task).'),
      'the note on the mention that reached nobody',
    );
    const comments = await e2e.api.request<Array<{ mentions: string[] }>>(
      'GET',
      `/api/tasks/${task._id}/comments`,
      admin.token,
    );
    expect(comments.at(-1)?.mentions).toEqual([colleague.user._id]);
    expect(comments.at(-1)?.mentions).not.toContain(outsider.user._id);
  });

  it('an assignee attaches a file and downloads it again', async () => {
    const { member, task } = await world();
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto(`/user/task-details/${task._id}`);
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Attach a file' }).click(),
    ]);
    await chooser.setFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('launch notes'),
    });
    await expectToast(page, 'notes.txt attached');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download notes.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('launch notes');
  });

  it('a file over the limit is refused with the limit said, and not sent a second time', async () => {
    const { member, task } = await world();
    const session = await e2e.openPage({ token: member.token });
    const { page } = session;
    session.expectFailedRequest({ path: `/api/tasks/${task._id}/files`, status: 413 });
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/files'))
        uploads.push(request.url());
    });
    await page.goto(`/user/task-details/${task._id}`);
    // The server's default MAX_FILE_MB is 25. A file on disk: the browser reads it itself.
    const big = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tm-big-')), 'video.mp4');
    fs.writeFileSync(big, Buffer.alloc(25 * 1024 * 1024 + 1));
    const refusal = 'video.mp4 is too large: a file may be at most 25 MB.';
    for (const attempt of [1, 2]) {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Attach a file' }).click(),
      ]);
      await chooser.setFiles(big);
      await expectToast(page, refusal);
      // The second time the app knows the limit: nothing is sent.
      expect(uploads, `uploads after attempt ${attempt}`).toHaveLength(1);
      if (attempt === 1) await expectHidden(page.getByText(refusal), 'the first refusal gone');
    }
    await expectVisible(page.getByText('No files yet.'), 'no file attached');
    fs.rmSync(path.dirname(big), { recursive: true, force: true });
  });
});
