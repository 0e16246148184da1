import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildPerson, buildTask, toTaskCard } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type Respond } from '../../../test/stub-api';
import { TaskCard } from '../components/task-card';
import { TaskForm } from '../components/task-form';
import { onePageOfUsers } from '../components/user-picker-fixtures';
import { emptyTaskForm } from '../task-form-rules';
import { CreateTaskPage } from './create-task-page';

const mia = buildPerson({ name: 'Mia Member' });

function serve(answer: Respond) {
  return stubApi((call) =>
    call.method === 'GET' && call.url === '/api/users'
      ? { status: 200, data: [mia] }
      : answer(call),
  );
}

function open(state?: unknown) {
  return renderPage(<CreateTaskPage />, { path: paths.admin.createTask, state });
}

beforeEach(async () => {
  await setLanguage('de');
});

afterEach(async () => {
  await setLanguage('en');
});

describe('the task form in German', { timeout: 30_000 }, () => {
  it('labels its fields in German and keeps the priority values the API knows', () => {
    render(
      <TaskForm
        mode="create"
        draftKey="task:new"
        initialValues={emptyTaskForm}
        userChoices={onePageOfUsers([mia])}
        pending={false}
        onSubmit={vi.fn()}
      />,
    );
    expect(screen.getByLabelText('Titel')).toHaveAttribute(
      'placeholder',
      'App-Oberfläche gestalten',
    );
    expect(screen.getByLabelText('Beschreibung')).toHaveAttribute(
      'placeholder',
      'Aufgabe beschreiben',
    );
    const priority = screen.getByLabelText('Priorität');
    expect(priority).toHaveValue('Low');
    expect(
      within(priority)
        .getAllByRole('option')
        .map((option) => [option.textContent, (option as HTMLOptionElement).value]),
    ).toEqual([
      ['Niedrig', 'Low'],
      ['Mittel', 'Medium'],
      ['Hoch', 'High'],
    ]);
    expect(screen.getByLabelText('Fälligkeitsdatum')).toHaveAttribute('type', 'date');
    expect(screen.getByRole('button', { name: 'AUFGABE ERSTELLEN' })).toBeInTheDocument();
  });

  it('heads the Create Task page in German and asks about a past due date in German', async () => {
    const user = userEvent.setup({ delay: null });
    const { requests } = serve(() => undefined);
    open();
    expect(screen.getByRole('heading', { name: 'Aufgabe erstellen' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Titel'), 'Plan');
    await user.type(screen.getByLabelText('Beschreibung'), 'Der Plan');
    await user.type(screen.getByLabelText('Fälligkeitsdatum'), '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Mitglieder hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Personen auswählen' });
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Mia Member' }));
    await user.click(within(dialog).getByRole('button', { name: 'Fertig' }));
    await user.type(screen.getByRole('textbox', { name: 'TODO-Checkliste' }), 'Entwurf{Enter}');
    const asked: string[] = [];
    const confirm = vi.spyOn(window, 'confirm').mockImplementation((question) => {
      asked.push(String(question));
      return false;
    });
    try {
      await user.click(screen.getByRole('button', { name: 'AUFGABE ERSTELLEN' }));
    } finally {
      confirm.mockRestore();
    }
    expect(asked).toEqual([
      'Das Fälligkeitsdatum liegt in der Vergangenheit. Aufgabe trotzdem erstellen?',
    ]);
    expect(requests.filter((call) => call.method === 'POST')).toEqual([]);
  });
});

describe('the update form in German', { timeout: 30_000 }, () => {
  it('names the heading, the buttons and the delete dialog in German', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    serve((call) =>
      call.method === 'GET' && call.url === `/api/tasks/${task._id}`
        ? { status: 200, data: task }
        : undefined,
    );
    open({ taskId: task._id });
    expect(screen.getByLabelText('Aufgabe wird geladen')).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByRole('heading', { name: 'Aufgabe bearbeiten' })).toBeInTheDocument();
    expect(screen.getByLabelText('Titel')).toHaveValue('Prepare the launch');
    expect(screen.getByLabelText('Priorität')).toHaveValue('High');
    expect(screen.getByRole('button', { name: 'AUFGABE SPEICHERN' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Löschen' }));
    const dialog = screen.getByRole('dialog', { name: 'Aufgabe löschen' });
    expect(
      within(dialog).getByText('Möchtest du diese Aufgabe wirklich löschen?'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Abbrechen' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Löschen' })).toBeInTheDocument();
  });

  it('says in German when the task does not exist, with a link back', async () => {
    serve(() => ({ status: 404, data: {} }));
    open({ taskId: buildTask()._id });
    expect(await screen.findByRole('alert')).toHaveTextContent('Aufgabe nicht gefunden');
    expect(screen.getByRole('heading', { name: 'Aufgabe bearbeiten' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zu „Aufgaben verwalten“' })).toHaveAttribute(
      'href',
      '/admin/tasks',
    );
  });
});

describe('the task card in German', () => {
  it('names the dates, the checklist progress and the attachments in German', () => {
    const task = buildTask({ attachments: ['https://a.example', 'b.example'] });
    render(
      <MemoryRouter>
        <TaskCard task={toTaskCard(task)} target={{ to: '/user/task-details/x' }} />
      </MemoryRouter>,
    );
    const card = screen.getByRole('link', { name: task.title });
    expect(within(card).getByText('Startdatum')).toBeInTheDocument();
    expect(within(card).getByText('Fälligkeitsdatum')).toBeInTheDocument();
    expect(within(card).getByText(/Erledigt:/)).toHaveTextContent('Erledigt: 1 / 2');
    expect(within(card).getByRole('img', { name: '2 Anhänge' })).toBeInTheDocument();
  });
});
