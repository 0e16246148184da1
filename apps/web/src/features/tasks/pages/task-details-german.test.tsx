import type { Task } from '@task-manager/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildPerson, buildTask, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { taskAnswer } from '../../../test/task-page-answers';
import { AdminTaskPage } from './admin-task-page';
import { TaskDetailsPage } from './task-details-page';

function open(task: Task) {
  return renderPage(<TaskDetailsPage />, {
    route: paths.user.taskDetails.pattern,
    path: paths.user.taskDetails.to(task._id),
  });
}

/** The section under one of the page's small headings. */
async function section(name: string) {
  return (await screen.findByRole('heading', { name })).parentElement!;
}

beforeEach(async () => {
  await setLanguage('de');
});

afterEach(async () => {
  await setLanguage('en');
});

describe('the task details page in German', { timeout: 30_000 }, () => {
  it('names its sections, the priority and the assignees in German', async () => {
    const task = buildTask({
      priority: 'Low',
      assignedTo: [
        buildPerson({ name: 'Mia Member' }),
        buildPerson({ name: 'Dan Gone', deactivated: true }),
      ],
      attachments: ['example.com/plan'],
    });
    stubApi((call) => taskAnswer(call, task));
    open(task);
    expect(screen.getByRole('status')).toHaveTextContent('Aufgabe wird geladen...');
    expect(await screen.findByRole('heading', { name: 'Prepare the launch' })).toBeInTheDocument();
    expect(screen.getByText('In Arbeit')).toBeInTheDocument();
    expect(within(await section('Beschreibung')).getByText(task.description)).toBeInTheDocument();
    expect(within(await section('Priorität')).getByText('Niedrig')).toBeInTheDocument();
    expect(await section('Fälligkeitsdatum')).toBeInTheDocument();
    const assigned = await section('Zugewiesen an');
    const names = within(assigned).getByRole('list', { name: 'Zugewiesene Personen' });
    expect(names).toHaveTextContent('Mia Member');
    expect(names).toHaveTextContent('Dan Gone (deaktiviert)');
    expect(
      within(await section('Todo-Checkliste')).getByRole('checkbox', { name: 'Write the draft' }),
    ).toBeInTheDocument();
    expect(
      within(await section('Anhänge')).getByRole('link', { name: /example\.com\/plan/ }),
    ).toBeInTheDocument();
    for (const english of ['Description', 'Priority', 'Due Date', 'Assigned To', 'Low']) {
      expect(screen.queryByText(english)).toBeNull();
    }
  });

  it('toasts a ticked item, and a failed one, in German', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask();
    let fails = false;
    stubApi((call) => {
      if (call.method === 'GET') return taskAnswer(call, task);
      if (call.method === 'PATCH') {
        return fails
          ? { status: 400, data: { message: 'Nope' } }
          : { status: 200, data: { message: 'Task checklist updated', task } };
      }
      return undefined;
    });
    open(task);
    await user.click(await screen.findByRole('checkbox', { name: 'Review the draft' }));
    expect(await screen.findByText('Checkliste aktualisiert')).toBeInTheDocument();
    fails = true;
    await user.click(await screen.findByRole('checkbox', { name: 'Write the draft' }));
    expect(
      await screen.findByText('Die Checkliste konnte nicht aktualisiert werden.'),
    ).toBeInTheDocument();
  });

  it('says in German that the task is not found, with the way back to My Tasks', async () => {
    stubApi(() => ({ status: 404, data: { message: 'Task not found' } }));
    open(buildTask());
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByRole('heading', { name: 'Aufgabe nicht gefunden' }),
    ).toBeInTheDocument();
    expect(alert).toHaveTextContent('Sie wurde vielleicht gelöscht oder ist dir nicht zugewiesen.');
    expect(within(alert).getByRole('link', { name: 'Zurück zu „Meine Aufgaben“' })).toHaveAttribute(
      'href',
      '/user/tasks',
    );
  });

  it("leads an admin back to 'Aufgaben verwalten'", async () => {
    stubApi(() => ({ status: 404, data: { message: 'Task not found' } }));
    const task = buildTask();
    renderPage(<AdminTaskPage />, {
      path: paths.admin.taskPage.to(task._id),
      route: paths.admin.taskPage.pattern,
      signedInAs: buildUser({ role: 'admin' }),
    });
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByRole('link', { name: 'Zurück zu „Aufgaben verwalten“' }),
    ).toHaveAttribute('href', '/admin/tasks');
  });

  it('says in German when the task cannot be loaded', async () => {
    stubApi(() => ({ status: 500, data: { message: 'Internal Server Error' } }));
    open(buildTask());
    // A server error is tried again once before it is shown.
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Die Aufgabe konnte nicht geladen werden.');
  });
});
