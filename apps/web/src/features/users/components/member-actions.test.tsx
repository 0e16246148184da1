import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildTeamMember, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type Respond } from '../../../test/stub-api';
import {
  ManageMemberButton,
  ManageMemberDialog,
  useManagedMember,
  type Member,
} from './member-actions';

const admin = buildUser({ name: 'Ada Admin', role: 'admin' });
const mia: Member = buildTeamMember({
  name: 'Mia Member',
  email: 'mia@example.com',
  pendingTasks: 2,
  inProgressTasks: 1,
  completedTasks: 4,
});
const sam = buildTeamMember({ name: 'Sam Other', email: 'sam@example.com' });

/**
 * The page's arrangement: a card's button in a list that may redraw, the dialog held outside it.
 * "Redraw" replaces the list with fresh copies (renamed, so the dialog's copy can be told apart);
 * "Empty" drops every card, as a filter the member left would.
 */
function Team({ members }: { members: Member[] }) {
  const [list, setList] = useState(members);
  const managed = useManagedMember(list);
  return (
    <>
      <ul>
        {list.map((member) => (
          <li key={member._id}>
            <ManageMemberButton member={member} onManage={managed.manage} />
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => setList(list.map((member) => ({ ...member, name: `${member.name} Jr` })))}
      >
        Redraw
      </button>
      <button type="button" onClick={() => setList([])}>
        Empty
      </button>
      <ManageMemberDialog member={managed.member} onClose={managed.close} />
    </>
  );
}

function open(member: Member, respond: Respond) {
  const stub = stubApi(respond);
  renderPage(<Team members={[member]} />, { path: paths.admin.users, signedInAs: admin });
  return stub;
}

async function dialog() {
  await userEvent.click(screen.getByRole('button', { name: `Manage ${mia.name}` }));
  return within(screen.getByRole('dialog', { name: `Manage ${mia.name}` }));
}

describe('MemberActions', () => {
  it('makes a member an admin with PATCH { role }', async () => {
    const stub = open(mia, () => ({ status: 200, data: { ...mia, role: 'admin' } }));
    await userEvent.click((await dialog()).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('Mia Member is now an admin')).toBeInTheDocument();
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({
        method: 'PATCH',
        url: `/api/users/${mia._id}`,
        body: { role: 'admin' },
      }),
    );
  });

  it("shows the server's refusal in the dialog (the last active admin)", async () => {
    open({ ...mia, role: 'admin' }, () => ({
      status: 409,
      data: { message: 'The last active admin cannot be demoted', code: 'conflict' },
    }));
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Make member' }));
    expect(await actions.findByRole('alert')).toHaveTextContent(
      'The last active admin cannot be demoted',
    );
  });

  it('asks before deactivating, and hands the open tasks over when chosen', async () => {
    const stub = open(mia, (request) =>
      request.method === 'GET' ? { status: 200, data: [mia, sam] } : { status: 200, data: mia },
    );
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Deactivate…' }));
    // Nothing is sent by the first click: it asks, naming the open tasks (not the finished).
    expect(stub.requests.filter((request) => request.method === 'PATCH')).toEqual([]);
    expect(
      actions.getByText(
        'Deactivate Mia Member? They are signed out now and cannot sign in again. They have 3 open tasks.',
      ),
    ).toBeInTheDocument();
    expect(actions.getByRole('radio', { name: 'Reassign them' })).toBeChecked();
    await userEvent.click(actions.getByRole('button', { name: 'Deactivate Mia Member' }));
    expect(actions.getByRole('alert')).toHaveTextContent('Choose who takes over the tasks.');
    const select = actions.getByLabelText('Reassign to');
    await within(select).findByRole('option', { name: /Sam Other/ });
    await userEvent.selectOptions(select, sam._id);
    await userEvent.click(actions.getByRole('button', { name: 'Deactivate Mia Member' }));
    expect(
      await screen.findByText('Mia Member is deactivated; their open tasks went to Sam Other'),
    ).toBeInTheDocument();
    const patch = stub.requests.find((request) => request.method === 'PATCH');
    expect(patch?.body).toEqual({ active: false, reassignTo: sam._id });
  });

  it('deactivates keeping the tasks with the person when so chosen, or with none open', async () => {
    const stub = open(mia, (request) =>
      request.method === 'GET' ? { status: 200, data: [mia, sam] } : { status: 200, data: mia },
    );
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Deactivate…' }));
    await userEvent.click(actions.getByRole('radio', { name: 'Leave them with Mia Member' }));
    await userEvent.click(actions.getByRole('button', { name: 'Deactivate Mia Member' }));
    expect(await screen.findByText('Mia Member is deactivated')).toBeInTheDocument();
    expect(stub.requests.find((request) => request.method === 'PATCH')?.body).toEqual({
      active: false,
    });
  });

  it('offers no handover for someone with only finished tasks', async () => {
    const done = { ...mia, pendingTasks: 0, inProgressTasks: 0 };
    open(done, (request) =>
      request.method === 'GET' ? { status: 200, data: [done, sam] } : { status: 200, data: done },
    );
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Deactivate…' }));
    expect(actions.getByText(/They have 0 open tasks\./)).toBeInTheDocument();
    expect(actions.queryByRole('radio')).toBeNull();
  });

  it('deactivates, and offers Reactivate for someone deactivated', async () => {
    const stub = open({ ...mia, active: false }, () => ({ status: 200, data: mia }));
    const actions = await dialog();
    expect(actions.getByText(/Deactivated/)).toBeInTheDocument();
    await userEvent.click(actions.getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('Mia Member can sign in again')).toBeInTheDocument();
    expect(stub.requests[0]?.body).toEqual({ active: true });
  });

  it('shows a reset link to hand over, as a full address', async () => {
    open(mia, () => ({ status: 200, data: { url: '/reset-password?token=t0k3n' } }));
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Create password reset link' }));
    expect(await actions.findByLabelText('Password reset link')).toHaveValue(
      `${window.location.origin}/reset-password?token=t0k3n`,
    );
  });

  it('keeps its reset link when the list redraws or drops the card, showing the latest copy', async () => {
    open(mia, () => ({ status: 200, data: { url: '/reset-password?token=t0k3n' } }));
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Create password reset link' }));
    const link = `${window.location.origin}/reset-password?token=t0k3n`;
    expect(await actions.findByLabelText('Password reset link')).toHaveValue(link);
    // The buttons behind a modal dialog are inert to the pointer: they are clicked as code would.
    screen.getByRole('button', { name: 'Redraw', hidden: true }).click();
    const renamed = await screen.findByRole('dialog', { name: 'Manage Mia Member Jr' });
    expect(within(renamed).getByLabelText('Password reset link')).toHaveValue(link);
    screen.getByRole('button', { name: 'Empty', hidden: true }).click();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /^Manage Mia/, hidden: true })).toBeNull(),
    );
    // The card is gone: the dialog keeps the copy it last had, and its link.
    const kept = screen.getByRole('dialog', { name: 'Manage Mia Member Jr' });
    expect(within(kept).getByLabelText('Password reset link')).toHaveValue(link);
    await userEvent.click(within(kept).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('starts afresh for the next member: no error or link of the last one', async () => {
    const stub = stubApi(() => ({
      status: 409,
      data: { message: 'The last active admin cannot be demoted', code: 'conflict' },
    }));
    renderPage(<Team members={[{ ...mia, role: 'admin' }, sam]} />, {
      path: paths.admin.users,
      signedInAs: admin,
    });
    const first = await dialog();
    await userEvent.click(first.getByRole('button', { name: 'Make member' }));
    expect(await first.findByRole('alert')).toHaveTextContent('last active admin');
    await userEvent.click(first.getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Manage Sam Other' }));
    const second = within(screen.getByRole('dialog', { name: 'Manage Sam Other' }));
    expect(second.getByText('sam@example.com · Member')).toBeInTheDocument();
    expect(second.queryByRole('alert')).toBeNull();
    expect(stub.requests).toHaveLength(1);
  });

  it('deletes with reassignment: names the task count, requires a choice, sends reassignTo', async () => {
    const stub = open(mia, (request) =>
      request.method === 'GET' ? { status: 200, data: [mia, sam] } : { status: 200, data: {} },
    );
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Delete…' }));
    expect(actions.getByText('Delete Mia Member? They have 7 tasks.')).toBeInTheDocument();
    // With tasks, handing them over is the first choice: one click does not orphan them.
    expect(actions.getByRole('radio', { name: 'Reassign them' })).toBeChecked();
    await userEvent.click(actions.getByRole('button', { name: 'Delete Mia Member' }));
    expect(actions.getByRole('alert')).toHaveTextContent('Choose who takes over the tasks.');
    // The person being deleted is not offered as the one who takes over.
    const select = actions.getByLabelText('Reassign to');
    await within(select).findByRole('option', { name: /Sam Other/ });
    expect(within(select).queryByRole('option', { name: /Mia Member/ })).toBeNull();
    await userEvent.selectOptions(select, sam._id);
    await userEvent.click(actions.getByRole('button', { name: 'Delete Mia Member' }));
    expect(await screen.findByText('Mia Member was deleted')).toBeInTheDocument();
    const deletion = stub.requests.find((request) => request.method === 'DELETE');
    expect(deletion).toEqual(
      expect.objectContaining({ url: `/api/users/${mia._id}`, params: { reassignTo: sam._id } }),
    );
  });
  it('deletes someone without tasks at once: there is nothing to hand over', async () => {
    const idle = { ...mia, pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 };
    const stub = open(idle, (request) =>
      request.method === 'GET' ? { status: 200, data: [idle, sam] } : { status: 200, data: {} },
    );
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Delete…' }));
    expect(actions.getByRole('radio', { name: 'Leave them without Mia Member' })).toBeChecked();
    await userEvent.click(actions.getByRole('button', { name: 'Delete Mia Member' }));
    expect(await screen.findByText('Mia Member was deleted')).toBeInTheDocument();
    const deletion = stub.requests.find((request) => request.method === 'DELETE');
    expect(deletion?.url).toBe(`/api/users/${mia._id}`);
    expect(deletion?.params?.reassignTo).toBeUndefined();
  });
});

describe('MemberActions in German', () => {
  afterEach(() => setLanguage('en'));

  it('counts the tasks with the right plural and confirms in German', async () => {
    await setLanguage('de');
    open({ ...mia, pendingTasks: 1, inProgressTasks: 0, completedTasks: 0 }, (request) =>
      request.method === 'GET'
        ? { status: 200, data: [mia, sam] }
        : { status: 200, data: { ...mia, role: 'admin' } },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Mia Member verwalten' }));
    const actions = within(screen.getByRole('dialog', { name: 'Mia Member verwalten' }));
    expect(actions.getByText('mia@example.com · Mitglied')).toBeInTheDocument();
    await userEvent.click(actions.getByRole('button', { name: 'Löschen…' }));
    expect(actions.getByText('Mia Member löschen? Die Person hat 1 Aufgabe.')).toBeInTheDocument();
    await userEvent.click(actions.getByRole('button', { name: 'Schließen' }));
    await userEvent.click(screen.getByRole('button', { name: 'Mia Member verwalten' }));
    await userEvent.click(screen.getByRole('button', { name: 'Zum Admin machen' }));
    expect(await screen.findByText('Mia Member ist jetzt Admin')).toBeInTheDocument();
  });
});
