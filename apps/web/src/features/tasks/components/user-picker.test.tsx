import type { UserWithTaskCounts } from '@task-manager/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { buildPerson, buildTeamMember, userPageFor } from '../../../test/factories';
import { stubApi } from '../../../test/stub-api';
import { useUserChoices } from '../hooks/use-user-choices';
import type { AssigneeOption } from '../task-form-rules';
import { UserPicker } from './user-picker';
import { onePageOfUsers } from './user-picker-fixtures';

const mia = buildPerson({ name: 'Mia Member', email: 'mia@example.com' });
const max = buildPerson({ name: 'Max Member', email: 'max@example.com' });

function Harness({ initial = [] as AssigneeOption[], users = [mia, max] }) {
  const [selected, setSelected] = useState<AssigneeOption[]>(initial);
  return (
    <>
      <UserPicker {...onePageOfUsers(users)} selected={selected} onChange={setSelected} />
      <output data-testid="chosen">{selected.map((person) => person.name).join(', ')}</output>
    </>
  );
}

async function openPicker(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Add Members' }));
  return screen.getByRole('dialog', { name: 'Select Users' });
}

describe('the user picker', { timeout: 30_000 }, () => {
  it('lists every user with avatar, name, email and a checkbox named by the name', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    const dialog = await openPicker(user);
    expect(within(dialog).getByRole('checkbox', { name: 'Mia Member' })).not.toBeChecked();
    expect(within(dialog).getByText('mia@example.com')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Max Member' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Done' })).toBeInTheDocument();
  });

  it('applies the ticks on Done and shows the chosen people as avatars', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Max Member' }));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('chosen')).toHaveTextContent('Max Member');
    const group = screen.getByRole('group', { name: 'Assigned To' });
    expect(within(group).getByRole('img', { name: 'Max Member' })).toBeInTheDocument();
  });

  it('discards the ticks on Cancel, and shows the applied ones when opened again', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness initial={[mia]} />);
    let dialog = await openPicker(user);
    expect(within(dialog).getByRole('checkbox', { name: 'Mia Member' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Mia Member' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Max Member' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(/^Mia Member$/);

    dialog = await openPicker(user);
    expect(within(dialog).getByRole('checkbox', { name: 'Mia Member' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Max Member' })).not.toBeChecked();
  });

  it('discards the ticks when closed with the close button, like Cancel', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Mia Member' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('chosen')).toBeEmptyDOMElement();
  });

  it('lets someone assigned who is not in the user list be unticked', async () => {
    const user = userEvent.setup({ delay: null });
    const ada = buildPerson({ name: 'Ada Admin' });
    render(<Harness initial={[ada, mia]} />);
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Ada Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(/^Mia Member$/);
  });
});

/** A member as GET /api/users lists them. */
function member(name: string): UserWithTaskCounts {
  return buildTeamMember({ name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` });
}

/** The picker with its real data hook, over the stubbed server. */
function PickerWithServer() {
  const choices = useUserChoices();
  const [selected, setSelected] = useState<AssigneeOption[]>([]);
  return (
    <>
      <UserPicker {...choices} selected={selected} onChange={setSelected} />
      <output data-testid="chosen">{selected.map((person) => person.name).join(', ')}</output>
    </>
  );
}

describe('the user picker in German', { timeout: 30_000 }, () => {
  afterEach(() => setLanguage('en'));

  it('names the group, the dialog, its search, its count and its buttons in German', async () => {
    await setLanguage('de');
    const user = userEvent.setup({ delay: null });
    render(<Harness users={[]} />);
    await user.click(screen.getByRole('button', { name: 'Mitglieder hinzufügen' }));
    const dialog = screen.getByRole('dialog', { name: 'Personen auswählen' });
    expect(within(dialog).getByRole('searchbox', { name: 'Personen suchen' })).toHaveAttribute(
      'placeholder',
      'Nach Name oder E-Mail suchen',
    );
    expect(within(dialog).getByText('0 ausgewählt')).toBeInTheDocument();
    expect(within(dialog).getByText('Noch keine Teammitglieder')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(screen.getByRole('group', { name: 'Zugewiesen an' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mitglieder hinzufügen' }));
    expect(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Fertig' }),
    ).toBeVisible();
  });
});

describe('the user picker over the server', { timeout: 30_000 }, () => {
  function serve(team: UserWithTaskCounts[]) {
    const stub = stubApi((request) => userPageFor(team, request.params));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <PickerWithServer />
      </QueryClientProvider>,
    );
    return stub;
  }

  it('searches once typing pauses, and keeps people ticked across searches', async () => {
    const user = userEvent.setup({ delay: null });
    const { requests } = serve([member('Mia Member'), member('Max Member'), member('Lee Lead')]);
    const dialog = await openPicker(user);
    await within(dialog).findByRole('checkbox', { name: 'Lee Lead' });
    const search = within(dialog).getByRole('searchbox', { name: 'Search users' });
    // The dialog opens with focus in its search box (showModal honours the autofocus attribute).
    expect(search).toHaveAttribute('autofocus');

    await user.type(search, 'mi');
    await waitFor(() =>
      expect(requests.at(-1)!.params).toEqual({ limit: 50, q: 'mi', active: 'true' }),
    );
    // Typed fast, asked once: no request for 'm' alone.
    expect(requests.map((request) => request.params?.q)).toEqual([undefined, 'mi']);
    await waitFor(() =>
      expect(within(dialog).queryByRole('checkbox', { name: 'Lee Lead' })).not.toBeInTheDocument(),
    );
    await user.click(within(dialog).getByRole('checkbox', { name: 'Mia Member' }));
    expect(within(dialog).getByText('1 selected')).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'MAX');
    await waitFor(() =>
      expect(requests.at(-1)!.params).toEqual({ limit: 50, q: 'MAX', active: 'true' }),
    );
    const results = await within(dialog).findByRole('list', { name: 'Users' });
    await within(results).findByRole('checkbox', { name: 'Max Member' });
    expect(within(results).queryByRole('checkbox', { name: 'Mia Member' })).not.toBeInTheDocument();
    // Mia is not in these results, yet still ticked, listed apart.
    const kept = within(dialog).getByRole('list', { name: 'Selected' });
    expect(within(kept).getByRole('checkbox', { name: 'Mia Member' })).toBeChecked();
    await user.click(within(results).getByRole('checkbox', { name: 'Max Member' }));
    expect(within(dialog).getByText('2 selected')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(/^Mia Member, Max Member$/);
    const group = screen.getByRole('group', { name: 'Assigned To' });
    expect(within(group).getByRole('img', { name: 'Mia Member' })).toBeInTheDocument();
    expect(within(group).getByRole('img', { name: 'Max Member' })).toBeInTheDocument();
  });

  it('says when no one matches, and unticks someone from an earlier search', async () => {
    const user = userEvent.setup({ delay: null });
    serve([member('Mia Member'), member('Max Member')]);
    const dialog = await openPicker(user);
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Mia Member' }));
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search users' }), 'zed');
    expect(await within(dialog).findByText('No users match “zed”')).toBeInTheDocument();
    const kept = within(dialog).getByRole('list', { name: 'Selected' });
    await user.click(within(kept).getByRole('checkbox', { name: 'Mia Member' }));
    // Unticked, but still listed, so it can be ticked again without searching for it.
    expect(within(kept).getByRole('checkbox', { name: 'Mia Member' })).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByTestId('chosen')).toBeEmptyDOMElement();
  });

  it('loads the next page when the list is scrolled near its end', async () => {
    const user = userEvent.setup({ delay: null });
    const team = Array.from({ length: 120 }, (_, index) =>
      member(`Person ${String(index + 1).padStart(3, '0')}`),
    );
    // jsdom has no layout: the scrolling box (the element marked aria-busy) is 500 px high,
    // its rows 60 px each.
    let scrollTop = 0;
    const box = (element: Element) => element.hasAttribute('aria-busy');
    const originals = (['scrollHeight', 'clientHeight', 'scrollTop'] as const).map(
      (name) => [name, Object.getOwnPropertyDescriptor(Element.prototype, name)!] as const,
    );
    Object.defineProperties(Element.prototype, {
      scrollHeight: {
        configurable: true,
        get(this: Element) {
          return this.querySelectorAll('li').length * 60;
        },
      },
      clientHeight: { configurable: true, get: (): number => 500 },
      scrollTop: {
        configurable: true,
        get(this: Element) {
          return box(this) ? scrollTop : 0;
        },
      },
    });
    try {
      const { requests } = serve(team);
      const dialog = await openPicker(user);
      await within(dialog).findByRole('checkbox', { name: 'Person 050' });
      const scroller = within(dialog).getByRole('list', { name: 'Users' }).parentElement!;
      expect(box(scroller)).toBe(true);
      scrollTop = 1000;
      fireEvent.scroll(scroller);
      expect(requests.map((request) => request.params?.cursor)).toEqual([undefined]);

      scrollTop = 2350;
      fireEvent.scroll(scroller);
      await within(dialog).findByRole('checkbox', { name: 'Person 100' });
      expect(requests.map((request) => request.params?.cursor)).toEqual([undefined, '50']);
      expect(within(dialog).getAllByRole('checkbox', { name: 'Person 050' })).toHaveLength(1);
      expect(
        within(dialog).queryByRole('checkbox', { name: 'Person 101' }),
      ).not.toBeInTheDocument();
    } finally {
      for (const [name, descriptor] of originals) {
        Object.defineProperty(Element.prototype, name, descriptor);
      }
    }
  });
});
