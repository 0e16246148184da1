import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '../config/paths';
import { buildUser } from '../test/factories';
import { renderPage } from '../test/render-page';
import { KeyboardShortcuts } from './keyboard-shortcuts';

function open(role: 'admin' | 'member') {
  renderPage(
    <>
      <KeyboardShortcuts />
      <input aria-label="A field" />
    </>,
    { path: '/somewhere', signedInAs: buildUser({ role }) },
  );
}

describe('KeyboardShortcuts', () => {
  it('? lists the shortcuts', async () => {
    open('admin');
    await userEvent.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveTextContent('Create a task');
    expect(dialog).toHaveTextContent('Go to Manage Tasks');
  });

  it('lists no create shortcut for a member', async () => {
    open('member');
    await userEvent.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).not.toHaveTextContent('Create a task');
    expect(dialog).toHaveTextContent('Go to My Tasks');
  });

  it('g t goes to the task list of the role, c creates (admins)', async () => {
    open('member');
    await userEvent.keyboard('gt');
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      paths.user.tasks,
    );
  });

  it('does nothing while typing in a field', async () => {
    open('admin');
    await userEvent.type(screen.getByLabelText('A field'), 'c?gt');
    expect(screen.queryByRole('status', { name: 'Location' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('A field')).toHaveValue('c?gt');
  });
});
