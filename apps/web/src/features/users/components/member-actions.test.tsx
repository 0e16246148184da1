import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildTeamMember, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type Respond } from '../../../test/stub-api';
import { MemberActions, type Member } from './member-actions';

const admin = buildUser({ name: 'Ada Admin', role: 'admin' });
const mia: Member = buildTeamMember({
  name: 'Mia Member',
  email: 'mia@example.com',
  pendingTasks: 2,
  inProgressTasks: 1,
  completedTasks: 4,
});
const sam = buildTeamMember({ name: 'Sam Other', email: 'sam@example.com' });

function open(member: Member, respond: Respond) {
  const stub = stubApi(respond);
  renderPage(<MemberActions member={member} />, { path: paths.admin.users, signedInAs: admin });
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

  it('deletes with reassignment: names the task count, requires a choice, sends reassignTo', async () => {
    const stub = open(mia, (request) =>
      request.method === 'GET' ? { status: 200, data: [mia, sam] } : { status: 200, data: {} },
    );
    const actions = await dialog();
    await userEvent.click(actions.getByRole('button', { name: 'Delete…' }));
    expect(actions.getByText('Delete Mia Member? They have 7 tasks.')).toBeInTheDocument();
    await userEvent.click(actions.getByRole('radio', { name: 'Reassign them' }));
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
