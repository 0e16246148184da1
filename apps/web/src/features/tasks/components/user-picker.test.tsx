import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AssigneeOption } from '../task-form-rules';
import { buildPerson } from '../task-form-test-utils';
import { UserPicker } from './user-picker';

const mia = buildPerson({ name: 'Mia Member', email: 'mia@example.com' });
const max = buildPerson({ name: 'Max Member', email: 'max@example.com' });

function Harness({ initial = [] as AssigneeOption[], users = [mia, max] }) {
  const [selected, setSelected] = useState<AssigneeOption[]>(initial);
  return (
    <>
      <UserPicker
        users={users}
        loading={false}
        failed={false}
        onRetry={vi.fn()}
        selected={selected}
        onChange={setSelected}
      />
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
