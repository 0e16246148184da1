import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD, uniqueEmail } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import {
  expectPath,
  expectSignedOutAfter,
  expectToast,
  expectVisible,
  signInThroughForm,
  sideMenu,
} from './support/ui.js';

/** Running a team in the browser: people, invitations, reset links and one's own profile. */
const e2e = setupE2E();

describe('running a team', () => {
  it("an admin deactivates a member, handing over their open task: the member's open page ends at its next request", async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const member = await e2e.api.registerMember('Dan Deactivated', uniqueEmail('dan'));
    const heir = await e2e.api.registerMember('Hana Heir', uniqueEmail('hana'));
    const open = await e2e.api.createTask(admin.token, {
      title: 'Dan’s open task',
      assignedTo: [member.user._id],
    });
    const finished = await e2e.api.createTask(admin.token, {
      title: 'Dan’s finished task',
      assignedTo: [member.user._id],
    });
    await e2e.api.request('PUT', `/api/tasks/${finished._id}/status`, admin.token, {
      status: 'Completed',
    });
    const memberSession = await e2e.openPage({ token: member.token });
    const memberPage = memberSession.page;
    await memberPage.goto('/user/dashboard');
    await expectVisible(sideMenu(memberPage).getByText('Dan Deactivated'), 'the member signed in');

    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/users');
    await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill('Dan Deact');
    // The search answers after its debounce, and the list redraws when it does: the dialog is
    // held by the page, so one opened from the list before that stays open through the redraw.
    await page.getByRole('button', { name: 'Manage Dan Deactivated' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Dan Deactivated' });
    await expectVisible(dialog, 'the dialog');
    // A phone's width redraws every row of the grid (one card per row): the dialog stays open.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(390);
    // It asks first, saying what happens, and offers to hand the open task over.
    await dialog.getByRole('button', { name: 'Deactivate…' }).click();
    await expectVisible(dialog.getByText(/They have 1 open task\./), 'the open task count');
    expect(await dialog.getByRole('radio', { name: 'Reassign them' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Deactivate Dan Deactivated' }).click();
    await expectVisible(dialog.getByText('Choose who takes over the tasks.'), 'the missing choice');
    await dialog
      .getByLabel('Reassign to')
      .selectOption({ label: `Hana Heir (${heir.user.email})` });
    await dialog.getByRole('button', { name: 'Deactivate Dan Deactivated' }).click();
    await expectToast(page, 'Dan Deactivated is deactivated; their open tasks went to Hana Heir');
    const assigneesOf = async (id: string) =>
      (await e2e.api.getTask(admin.token, id)).assignedTo.map((person) => person._id);
    expect(await assigneesOf(open._id)).toEqual([heir.user._id]);
    expect(await assigneesOf(finished._id)).toEqual([member.user._id]);
    const card = page.getByRole('listitem').filter({ hasText: 'Dan Deactivated' });
    await expectVisible(card.getByText('Deactivated', { exact: true }), 'the deactivated mark');

    // The member's next request is refused: the app ends the session and shows the sign-in page.
    // My Tasks asks for its tasks and its label choices: both are refused.
    memberSession.expectSessionEnd(['/api/tasks', '/api/labels']);
    await expectSignedOutAfter(memberPage, memberPage.getByRole('link', { name: 'My Tasks' }));
  });

  it('an invitation link signs someone up with its role, once', async () => {
    const admin = await e2e.api.registerAdmin('Ina Inviter');
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/settings');
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('Role').selectOption('member');
    await invitations.getByRole('button', { name: 'Create invitation link' }).click();
    const linkField = invitations.getByLabel('New invitation link (shown only now)');
    await expectVisible(linkField, 'the new link');
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/signup\?invite=[\w-]+$/);

    const guest = await e2e.openPage();
    await guest.page.goto(link);
    await expectVisible(
      guest.page.getByText('You have been invited to join as a member.'),
      'what the invitation grants',
    );
    await guest.page.getByLabel('Full Name').fill('Nia Newcomer');
    await guest.page.getByLabel('Email Address').fill(uniqueEmail('nia'));
    await guest.page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await guest.page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectPath(guest.page, '/user/dashboard');

    // Used once: the same link now says so.
    const again = await e2e.openPage();
    again.expectFailedRequest({ path: '/api/invites/lookup', status: 404 });
    await again.page.goto(link);
    await expectVisible(
      again.page.getByText(/This invitation link has expired, was already used or was revoked/),
      'the dead link message',
    );
    await page.reload();
    await expectVisible(invitations.getByRole('cell', { name: 'Used' }), 'the invitation as used');
  });

  it('a reset link from an admin sets a new password and ends the old sessions', async () => {
    const admin = await e2e.api.registerAdmin('Rae Resetter');
    const email = uniqueEmail('lee');
    const member = await e2e.api.registerMember('Lee Lostpass', email);
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/users');
    await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill('Lee Lostpass');
    await page.getByRole('button', { name: 'Manage Lee Lostpass' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Lee Lostpass' });
    await dialog.getByRole('button', { name: 'Create password reset link' }).click();
    const link = await dialog.getByLabel('Password reset link').inputValue();
    expect(link).toMatch(/\/reset-password\?token=[\w-]+$/);

    const guest = await e2e.openPage();
    await guest.page.goto(link);
    const password = 'a brand new passphrase 77';
    await guest.page.getByLabel('New Password', { exact: true }).fill(password);
    await guest.page.getByLabel('Confirm New Password').fill(password);
    await guest.page.getByRole('button', { name: 'SET PASSWORD' }).click();
    await expectVisible(guest.page.getByText(/Your password has been changed/), 'the success');

    // The member's old token is dead; the new password signs in.
    await expect(e2e.api.request('GET', '/api/auth/profile', member.token)).rejects.toThrow(/401/);
    const signIn = await e2e.openPage();
    await signInThroughForm(signIn.page, email, password);
    await expectPath(signIn.page, '/user/dashboard');
  });

  it('a person changes their own name and password on the profile page', async () => {
    const email = uniqueEmail('pat');
    const member = await e2e.api.registerMember('Pat Profile', email);
    const other = await e2e.openPage({ token: member.token });
    await other.page.goto('/user/dashboard');

    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/dashboard');
    await sideMenu(page)
      .getByRole('link', { name: /Your profile/ })
      .click();
    await expectPath(page, '/profile');
    const details = page.getByRole('region', { name: 'Your details' });
    await details.getByLabel('Full Name').fill('Pat Renamed');
    await details.getByRole('button', { name: 'Save' }).click();
    await expectVisible(sideMenu(page).getByText('Pat Renamed'), 'the new name in the menu');

    const passwordCard = page.getByRole('region', { name: 'Password' });
    await passwordCard.getByLabel('Current Password').fill(TEST_PASSWORD);
    await passwordCard.getByLabel('New Password', { exact: true }).fill('another long phrase 5');
    await passwordCard.getByLabel('Confirm New Password').fill('another long phrase 5');
    await passwordCard.getByRole('button', { name: 'Change password' }).click();
    await expectToast(page, 'Password changed. Every other session has been signed out.');

    // This page goes on; the other session ends at its next request: its dashboard's data, asked
    // for again as its window comes to the front, or My Tasks.
    await page.goto('/user/tasks');
    await expectPath(page, '/user/tasks');
    other.expectSessionEnd(['/api/tasks/user-dashboard-data', '/api/tasks', '/api/labels']);
    await expectSignedOutAfter(other.page, other.page.getByRole('link', { name: 'My Tasks' }));
  });
});
