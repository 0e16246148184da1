import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import {
  expectHidden,
  expectPath,
  expectSignedOutAfter,
  expectToast,
  expectVisible,
  signInThroughForm,
  sideMenu,
  statCardValue,
} from './support/ui.js';

/**
 * A member's day: signs in, sees only their own tasks, works through a checklist until the task
 * is Completed, opens attachments, and is kept out of the admin pages.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let mia: SignedInUser;
let other: SignedInUser;
let launch: ApiTask;
let otherTask: ApiTask;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  mia = await e2e.api.registerMember('Mia Member');
  other = await e2e.api.registerMember('Olly Other');
  launch = await e2e.api.createTask(admin.token, {
    title: 'Prepare the launch',
    description: 'Everything the launch needs, in order.',
    priority: 'High',
    dueDate: '2031-06-15',
    assignedTo: [mia.user._id],
    todoChecklist: [{ text: 'Write the draft' }, { text: 'Review the draft' }],
    attachments: ['example.com/launch-plan', 'https://docs.example.org/brief'],
  });
  await e2e.api.createTask(admin.token, {
    title: 'Water the plants',
    priority: 'Low',
    assignedTo: [mia.user._id, other.user._id],
  });
  otherTask = await e2e.api.createTask(admin.token, {
    title: 'Someone else’s report',
    assignedTo: [other.user._id],
  });
});

describe('a member', () => {
  it('signs in at /login with the password toggle and lands on the member dashboard', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back' }), 'Welcome Back');
    await expectVisible(page.getByText('Please enter your details to log in'), 'the subtitle');

    // The form says what is wrong before anything is sent.
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await expectVisible(page.getByText('Please enter a valid email address.'), 'the e-mail error');
    await page.getByLabel('Email Address').fill(mia.user.email);
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await expectVisible(page.getByText('Please enter the password'), 'the password error');

    const password = page.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('placeholder')).toBe('Min 8 Characters');
    await password.fill(mia.password);
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: /show password/i }).click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await password.inputValue()).toBe(mia.password);
    await page.getByRole('button', { name: /hide password/i }).click();
    expect(await password.getAttribute('type')).toBe('password');

    await page.getByRole('button', { name: 'LOGIN' }).click();
    await expectToast(page, 'Welcome back, Mia Member!');
    await expectPath(page, '/user/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    // The member menu: their name and e-mail, no Admin badge, no admin entries.
    const menu = sideMenu(page);
    await expectVisible(menu.getByText('Mia Member'), 'the name in the menu');
    await expectVisible(menu.getByText(mia.user.email), 'the e-mail in the menu');
    expect(await menu.getByText('Admin', { exact: true }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Manage Tasks' }).count()).toBe(0);
    await expectVisible(menu.getByRole('link', { name: 'Dashboard' }), 'the Dashboard entry');
    await expectVisible(menu.getByRole('link', { name: 'My Tasks' }), 'the My Tasks entry');

    // The dashboard counts only this member's two tasks (a third is someone else's).
    await expect.poll(() => statCardValue(page, 'Total Tasks')).toBe('2');
    expect(await statCardValue(page, 'Pending Tasks')).toBe('2');
    expect(await statCardValue(page, 'Completed Tasks')).toBe('0');
    await expectVisible(page.getByRole('cell', { name: 'Water the plants' }), 'a recent task');
    await expectHidden(page.getByRole('cell', { name: otherTask.title }), 'the other task');

    // A signed-in member who opens /login goes back to their dashboard.
    await page.goto('/login');
    await expectPath(page, '/user/dashboard');
  });

  it('sees the server’s message under the form after a wrong password, and stays on /login', async () => {
    const session = await e2e.openPage();
    // The wrong password is answered 401 on purpose: Chromium logs that failed request.
    session.expectFailedRequest({ path: '/api/auth/login', status: 401 });
    const { page } = session;
    // Enter in the password field submits, as in any form.
    await page.goto('/login');
    await page.getByLabel('Email Address').fill(mia.user.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await expectVisible(
      page.getByRole('alert').getByText('Invalid email or password'),
      'the error',
    );
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('sees only their own tasks in My Tasks', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/dashboard');
    // See All under Recent Tasks leads to the same list as the menu entry.
    await page.getByRole('button', { name: /see all/i }).click();
    await expectPath(page, '/user/tasks');
    await sideMenu(page).getByRole('link', { name: 'Dashboard' }).click();
    await expectPath(page, '/user/dashboard');
    await sideMenu(page).getByRole('link', { name: 'My Tasks' }).click();
    await expectPath(page, '/user/tasks');
    await expectVisible(page.getByRole('heading', { name: 'My Task' }), 'the My Task heading');
    await expectVisible(page.getByText('Prepare the launch'), 'the launch task');
    await expectVisible(page.getByText('Water the plants'), 'the shared task');
    await expectHidden(page.getByText(otherTask.title), 'a task assigned to someone else');
    // The admin-only button is not there.
    expect(await page.getByRole('button', { name: 'Download Report' }).count()).toBe(0);
  });

  it('ticks the checklist on the task details page until the task is Completed', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/tasks');
    await page.getByText('Prepare the launch').click();
    await expectPath(page, `/user/task-details/${launch._id}`);

    // A deep link (a reload) loads the same task.
    await page.reload();
    const main = page.getByRole('main');
    await expectVisible(main.getByText('Prepare the launch'), 'the title after a reload');
    await expectVisible(
      main.getByText('Everything the launch needs, in order.'),
      'the description',
    );
    await expectVisible(main.getByText('Pending', { exact: true }), 'the Pending status badge');
    await expectVisible(main.getByText(/High/), 'the priority');
    await expectVisible(main.getByText('15th Jun 2031'), 'the due date');

    const draft = page.getByRole('checkbox', { name: 'Write the draft' });
    const review = page.getByRole('checkbox', { name: 'Review the draft' });
    expect(await draft.isChecked()).toBe(false);
    // A tick shows at once and stays: a person clicks and looks.
    const tick = async (box: typeof draft) => {
      await box.click();
      await expect.poll(() => box.isChecked()).toBe(true);
    };
    await tick(draft);
    await expectToast(page, 'Checklist updated successfully');
    await expectVisible(main.getByText('In Progress', { exact: true }), 'the In Progress badge');

    await tick(review);
    await expectVisible(main.getByText('Completed', { exact: true }), 'the Completed badge');
    expect(await draft.isChecked()).toBe(true);
    expect(await review.isChecked()).toBe(true);

    const saved = await e2e.api.getTask(mia.token, launch._id);
    expect(saved.status).toBe('Completed');
    expect(saved.progress).toBe(100);
    expect(saved.todoChecklist.map((item) => item.completed)).toEqual([true, true]);

    // Still ticked after a reload: it was saved, not only shown.
    await page.reload();
    await expectVisible(main.getByText('Completed', { exact: true }), 'Completed after a reload');
    expect(await page.getByRole('checkbox', { name: 'Write the draft' }).isChecked()).toBe(true);

    // Unticking one item takes the task back to In Progress.
    const reviewAgain = page.getByRole('checkbox', { name: 'Review the draft' });
    await reviewAgain.click();
    await expect.poll(() => reviewAgain.isChecked()).toBe(false);
    await expectVisible(main.getByText('In Progress', { exact: true }), 'In Progress again');
    await expect
      .poll(async () => (await e2e.api.getTask(mia.token, launch._id)).status)
      .toBe('In Progress');
  });

  it('opens attachments as links in a new tab, with https:// added to a bare address', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto(`/user/task-details/${launch._id}`);
    const bare = page.getByRole('link', { name: /example\.com\/launch-plan/ });
    await expectVisible(bare, 'the schemeless attachment');
    expect(await bare.getAttribute('href')).toBe('https://example.com/launch-plan');
    expect(await bare.getAttribute('target')).toBe('_blank');
    expect(await bare.getAttribute('rel')).toBe('noopener noreferrer');

    const full = page.getByRole('link', { name: /docs\.example\.org\/brief/ });
    expect(await full.getAttribute('href')).toBe('https://docs.example.org/brief');
    expect(await full.getAttribute('target')).toBe('_blank');
    expect(await full.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('is told the task is not found when it is not theirs, with a way back', async () => {
    const session = await e2e.openPage({ token: mia.token });
    // The server hides other people's tasks with a 404, on purpose here.
    session.expectFailedRequest({ path: `/api/tasks/${otherTask._id}`, status: 404 });
    await session.page.goto(`/user/task-details/${otherTask._id}`);
    await expectVisible(session.page.getByRole('heading', { name: 'Task not found' }), 'the error');
    await expectVisible(
      session.page.getByRole('link', { name: 'Back to My Tasks' }),
      'the way back',
    );
    await expectHidden(session.page.getByText(otherTask.title), 'the other task');
  });

  it('is sent to their own dashboard from an admin page', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/admin/dashboard');
    await expectPath(page, '/user/dashboard');
    await page.goto('/admin/tasks');
    await expectPath(page, '/user/dashboard');
  });

  it('logs out: the session is cleared and the pages ask to sign in again', async () => {
    const { page } = await e2e.openPage();
    await signInThroughForm(page, mia.user.email, mia.password);
    await expectPath(page, '/user/dashboard');
    // As a person would: the dashboard is drawn (its data in) before Logout. A request still in
    // flight when the token is ended would be refused (401), a console error here.
    await expectVisible(page.getByRole('button', { name: /see all/i }), 'the loaded dashboard');
    await sideMenu(page).getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.goto('/user/tasks');
    await expectPath(page, '/login');
  });
});

describe('the route guards', () => {
  it('send an admin who opens /user/dashboard to /admin/dashboard', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/user/dashboard');
    await expectPath(page, '/admin/dashboard');
  });

  it('send someone not signed in from /admin/tasks to /login', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/admin/tasks');
    await expectPath(page, '/login');
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back' }), 'the login form');
  });

  it('end a session whose token the server refuses, with a message, on /login', async () => {
    const session = await e2e.openPage({ token: 'a-token-the-server-never-issued' });
    session.expectFailedRequest({ path: '/api/auth/profile', status: 401 });
    await session.page.goto('/admin/dashboard');
    await expectPath(session.page, '/login');
    await expectToast(session.page, 'Session expired, please log in again');
    expect(await session.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('send a member to /login when the server ends their session mid-visit', async () => {
    const leaving = await e2e.api.registerMember('Pat Password');
    await e2e.api.createTask(admin.token, { title: 'Pat’s task', assignedTo: [leaving.user._id] });
    const session = await e2e.openPage({ token: leaving.token });
    const { page } = session;
    await page.goto('/user/tasks');
    await expectVisible(page.getByText('Pat’s task'), 'the task');
    // An admin resets the password: every session of that member ends on the server.
    await e2e.api.request('PUT', `/api/users/${leaving.user._id}`, admin.token, {
      password: 'a-brand-new-password',
    });
    // The filter bar's labels may be asked for again as the session ends.
    session.expectSessionEnd(['/api/tasks', '/api/labels']);
    await expectSignedOutAfter(page, page.getByRole('tab', { name: /^Pending\b/ }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('send /signUp, as the spec also writes it, to the sign-up form', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/signUp');
    await expectVisible(page.getByRole('heading', { name: 'Create an Account' }), 'the form');
  });

  it('send / to the dashboard of the signed-in role', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/');
    await expectPath(page, '/user/dashboard');
  });
});
