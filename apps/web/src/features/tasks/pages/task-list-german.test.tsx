import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { buildPerson, buildTaskList, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { ManageTasksPage } from './manage-tasks-page';
import { MyTasksPage } from './my-tasks-page';

const label = { _id: '00000000-0000-4000-8000-00000000aaaa', name: 'Backend', color: '#1d4ed8' };
const mia = buildPerson({ name: 'Mia Member' });

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** Three tasks, none of them completed: the Completed tab is empty, the others are not. */
function serve(summary = { all: 3, pendingTasks: 2, inProgressTasks: 1, completedTasks: 0 }) {
  return stubApi((request) => {
    if (request.url === '/api/labels') return { status: 200, data: [label] };
    if (request.url === '/api/users') return { status: 200, data: [mia] };
    return { status: 200, data: buildTaskList([], summary) };
  });
}

function optionsOf(name: string): string[] {
  return within(screen.getByRole('combobox', { name }))
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

beforeEach(async () => {
  await setLanguage('de');
  vi.useFakeTimers({ shouldAdvanceTime: false });
});

afterEach(async () => {
  vi.useRealTimers();
  await setLanguage('en');
});

describe('the task lists in German', () => {
  it('name the heading, the status tabs, the filters and the empty tab in German', async () => {
    serve();
    renderPage(<ManageTasksPage />, {
      path: '/admin/tasks?status=Completed',
      route: '/admin/tasks',
      signedInAs: buildUser({ role: 'admin' }),
    });
    expect(screen.getByRole('heading', { name: 'Aufgaben verwalten', level: 1 })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Aufgaben werden geladen');
    await advance(0);

    const tabs = within(screen.getByRole('tablist', { name: 'Aufgabenstatus' }));
    expect(tabs.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Alle 3',
      'Offen 2',
      'In Arbeit 1',
      'Erledigt 0',
    ]);
    expect(tabs.getByRole('tab', { name: 'Erledigt 0' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Keine erledigten Aufgaben')).toBeInTheDocument();
    expect(screen.getByText('Aufgaben mit diesem Status erscheinen hier.')).toBeInTheDocument();

    const filters = within(screen.getByRole('search', { name: 'Aufgaben filtern' }));
    expect(filters.getByRole('searchbox', { name: 'Suche' })).toHaveAttribute(
      'placeholder',
      'Titel, Beschreibung, Checkliste',
    );
    expect(optionsOf('Zuständig')).toEqual(['Alle', 'Ich', 'Mia Member']);
    const priority = within(filters.getByRole('group', { name: 'Priorität' }));
    for (const name of ['Niedrig', 'Mittel', 'Hoch']) {
      expect(priority.getByRole('checkbox', { name })).not.toBeChecked();
    }
    expect(filters.getByRole('group', { name: 'Labels' })).toBeInTheDocument();
    expect(optionsOf('Fällig')).toEqual([
      'Jederzeit',
      'Überfällig',
      'Heute fällig',
      'Diese Woche fällig',
      'Später fällig',
    ]);
    expect(optionsOf('Sortieren nach')).toEqual([
      'Neueste zuerst',
      'Fälligkeitsdatum',
      'Priorität',
      'Titel',
      'Zuletzt geändert',
    ]);
    expect(filters.getByRole('button', { name: 'Absteigende Reihenfolge' })).toHaveAttribute(
      'title',
      'Absteigend: klicken für aufsteigend',
    );
    expect(screen.getByRole('button', { name: 'Bericht herunterladen' })).toBeInTheDocument();
  });

  it('say in German when no task matches the filters, with a way to clear them', async () => {
    serve({ all: 0, pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 });
    renderPage(<MyTasksPage />, { path: '/user/tasks?priority=High', route: '/user/tasks' });
    expect(screen.getByRole('heading', { name: 'Meine Aufgaben', level: 1 })).toBeVisible();
    await advance(0);
    expect(screen.getByText('Keine Aufgaben passen zu diesen Filtern')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Filter zurücksetzen' })).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: 'Hoch' })).toBeChecked();
  });
});
