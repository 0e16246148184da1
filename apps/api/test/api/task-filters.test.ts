import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Label, type Task, type TaskListResponse } from '@task-manager/shared';
import { createLabel, createTask, setDueDate, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const DAY = 86_400_000;
/** Midnight UTC of today, plus `days`, plus `hours`. */
const utcDay = (days: number, hours = 12) => {
  const now = new Date();
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) +
      days * DAY +
      hours * 3600_000,
  ).toISOString();
};

/** The calendar date (y, m, d) it is now in `timeZone`. */
function dateIn(timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(new Date());
  const get = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

describe(`task list filters (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let ana: Session;
  let ben: Session;
  let bug: Label;
  let ux: Label;
  const t: Record<string, Task> = {};

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    ana = await signUp(ctx, 'member');
    ben = await signUp(ctx, 'member');
    const label = (name: string) => createLabel(ctx, admin, name, '#aa0000');
    bug = await label('Bug');
    ux = await label('UX');
    const done = [{ text: 'Only step', completed: true }];
    // New York's noon today and tomorrow, for the time-zone tests.
    const ny = dateIn('America/New_York');
    const nyNoon = (plusDays: number) =>
      // 17:00 UTC is noon in New York in winter, 1 pm in summer: the same day either way.
      new Date(Date.UTC(ny.year, ny.month - 1, ny.day + plusDays, 17)).toISOString();
    const specs: Array<[string, string[], Record<string, unknown>]> = [
      ['overdueAna', [ana.id], { dueDate: utcDay(-1), priority: 'High', labels: [bug._id] }],
      ['overdueDoneAna', [ana.id], { dueDate: utcDay(-2), todoChecklist: done, priority: 'High' }],
      ['todayBen', [ben.id], { dueDate: utcDay(0, 23.99), priority: 'Low', labels: [ux._id] }],
      ['weekAna', [ana.id], { dueDate: utcDay(3), priority: 'Medium', labels: [bug._id, ux._id] }],
      ['laterBen', [ben.id], { dueDate: utcDay(30), priority: 'Medium' }],
      ['laterBoth', [ana.id, ben.id], { dueDate: utcDay(9), priority: 'Low', todoChecklist: done }],
      ['nyToday', [ben.id], { dueDate: nyNoon(0), priority: 'Low' }],
      ['nyTomorrow', [ben.id], { dueDate: nyNoon(1), priority: 'Low' }],
    ];
    for (const [name, assignees, overrides] of specs) {
      t[name] = await createTask(ctx, admin, assignees, { title: name, ...overrides });
    }
  });
  afterAll(() => ctx.close());

  const list = async (session: Session, query: Record<string, string>) =>
    (
      await ctx.api
        .get('/api/tasks')
        .query({ limit: '500', ...query })
        .set(session.auth)
        .expect(200)
    ).body as TaskListResponse;
  const titles = async (session: Session, query: Record<string, string>) =>
    (await list(session, query)).tasks.map((task) => task.title).sort();

  it('due=overdue: due before now and not Completed', async () => {
    const overdue = await titles(admin, { due: 'overdue' });
    expect(overdue).toContain('overdueAna');
    for (const title of ['overdueDoneAna', 'weekAna', 'laterBen', 'laterBoth', 'nyTomorrow']) {
      expect(overdue).not.toContain(title);
    }
    const now = Date.now();
    const res = await list(admin, { due: 'overdue' });
    for (const task of res.tasks) {
      expect(Date.parse(task.dueDate)).toBeLessThan(now);
      expect(task.status).not.toBe('Completed');
    }
  });

  it('due=today, week and later, by the days of UTC by default', async () => {
    const today = await titles(admin, { due: 'today' });
    expect(today).toContain('todayBen');
    expect(today).not.toContain('weekAna');
    expect(today).not.toContain('overdueAna');
    const week = await titles(admin, { due: 'week' });
    expect(week).toEqual(expect.arrayContaining(['todayBen', 'weekAna']));
    expect(week).not.toContain('laterBen');
    expect(week).not.toContain('laterBoth');
    expect(week).not.toContain('overdueAna');
    const later = await titles(admin, { due: 'later' });
    expect(later).toEqual(expect.arrayContaining(['laterBen', 'laterBoth']));
    expect(later).not.toContain('weekAna');
    expect(later).not.toContain('todayBen');
  });

  it('reads today in the time zone sent as tz', async () => {
    const today = await titles(admin, { due: 'today', tz: 'America/New_York' });
    expect(today).toContain('nyToday');
    expect(today).not.toContain('nyTomorrow');
    const week = await titles(admin, { due: 'week', tz: 'America/New_York' });
    expect(week).toEqual(expect.arrayContaining(['nyToday', 'nyTomorrow']));
  });

  it('dueFrom and dueBefore give a range of due dates (a month), alone or narrowing due', async () => {
    // [today - 1 day 12:00, today + 9 days 12:00): yesterday's overdue tasks to the 9th day.
    const range = { dueFrom: utcDay(-1), dueBefore: utcDay(9) };
    const inRange = await titles(admin, range);
    expect(inRange).toEqual(
      expect.arrayContaining(['overdueAna', 'todayBen', 'weekAna', 'nyToday', 'nyTomorrow']),
    );
    // The start is inclusive, the end exclusive; the rest are outside.
    for (const title of ['overdueDoneAna', 'laterBen', 'laterBoth']) {
      expect(inRange).not.toContain(title);
    }
    // Another offset names the same instant: 14:00 at +02:00 is 12:00 UTC.
    const plusTwo = new Date(Date.parse(utcDay(9)) + 2 * 3600_000)
      .toISOString()
      .replace('Z', '+02:00');
    expect(await titles(admin, { dueFrom: plusTwo })).toEqual(
      await titles(admin, { dueFrom: utcDay(9) }),
    );
    expect(await titles(admin, { dueFrom: utcDay(9) })).toEqual(
      expect.arrayContaining(['laterBoth', 'laterBen']),
    );
    // With due, the window is narrowed: overdue tasks due from yesterday noon only. Which of
    // today's tasks are already overdue depends on the hour the test runs (New York's noon is
    // 17:00 UTC): the open ones due in [yesterday noon, now).
    const since = Date.parse(utcDay(-1));
    const overdueSince = Object.keys(t)
      .filter((name) => {
        const due = Date.parse(t[name]!.dueDate!);
        return t[name]!.status !== 'Completed' && due >= since && due < Date.now();
      })
      .sort();
    expect(overdueSince).toContain('overdueAna');
    expect(await titles(admin, { due: 'overdue', dueFrom: utcDay(-1) })).toEqual(overdueSince);
    // The counts follow the same range.
    const res = await list(admin, range);
    expect(res.statusSummary.all).toBe(res.tasks.length);
    // A member still sees only their own.
    const mine = await titles(ana, range);
    expect(mine).toEqual(['overdueAna', 'weekAna']);
  });

  it('priority takes a comma-separated list', async () => {
    expect(await titles(admin, { priority: 'High' })).toEqual(['overdueAna', 'overdueDoneAna']);
    const some = await titles(admin, { priority: 'High,Medium' });
    expect(some).toEqual(['laterBen', 'overdueAna', 'overdueDoneAna', 'weekAna']);
  });

  it('label takes a comma-separated list of label ids: tasks carrying any of them', async () => {
    expect(await titles(admin, { label: bug._id })).toEqual(['overdueAna', 'weekAna']);
    expect(await titles(admin, { label: `${bug._id},${ux._id}` })).toEqual([
      'overdueAna',
      'todayBen',
      'weekAna',
    ]);
  });

  it('assignee takes a user id, or me', async () => {
    const anas = ['laterBoth', 'overdueAna', 'overdueDoneAna', 'weekAna'];
    expect(await titles(admin, { assignee: ana.id })).toEqual(anas);
    expect(await titles(ana, { assignee: 'me' })).toEqual(anas);
    expect(await titles(ana, { assignee: ana.id })).toEqual(anas);
    expect(await titles(admin, { assignee: 'me' })).toEqual([]);
  });

  it('combines every filter (and the status tab)', async () => {
    const query = { assignee: ana.id, priority: 'High,Medium', label: bug._id, due: 'week' };
    expect(await titles(admin, query)).toEqual(['weekAna']);
    expect(await titles(admin, { ...query, status: 'Completed' })).toEqual([]);
    expect(
      await titles(admin, { assignee: ana.id, priority: 'High', status: 'Completed' }),
    ).toEqual(['overdueDoneAna']);
  });

  it('shows a member only their tasks whatever they send', async () => {
    expect(await titles(ana, { priority: 'Low' })).toEqual(['laterBoth']);
    expect(await titles(ana, { label: ux._id })).toEqual(['weekAna']);
    expect(await titles(ana, { due: 'later' })).toEqual(['laterBoth']);
  });

  it("answers a member asking for another member's tasks with an empty page and zero counts", async () => {
    const res = await list(ana, { assignee: ben.id });
    expect(res).toEqual({
      tasks: [],
      statusSummary: { all: 0, pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 },
      nextCursor: null,
    });
    const unknown = await list(ana, { assignee: randomUUID() });
    expect(unknown.tasks).toEqual([]);
  });

  it.each([
    [{}],
    [{ priority: 'Low' }],
    [{ label: 'bug' }],
    [{ due: 'overdue' }],
    [{ due: 'week', assignee: 'ana' }],
    [{ q: 'ana' }],
  ])('statusSummary counts the same filters as the list (%j)', async (raw) => {
    const query: Record<string, string> = { ...raw } as Record<string, string>;
    if (query.label === 'bug') query.label = bug._id;
    if (query.assignee === 'ana') query.assignee = ana.id;
    for (const session of [admin, ana]) {
      const all = await list(session, query);
      expect(all.statusSummary.all).toBe(all.tasks.length);
      const tabs = {
        Pending: 'pendingTasks',
        'In Progress': 'inProgressTasks',
        Completed: 'completedTasks',
      } as const;
      let sum = 0;
      for (const [status, key] of Object.entries(tabs)) {
        const tab = await list(session, { ...query, status });
        expect(tab.tasks.length).toBe(all.statusSummary[key]);
        expect(tab.statusSummary).toEqual(all.statusSummary);
        sum += tab.tasks.length;
      }
      expect(sum).toBe(all.statusSummary.all);
    }
  });

  it.each([
    ['sort', { sort: 'random' }],
    ['sort', { sort: 'createdat' }],
    ['order', { order: 'up' }],
    ['due', { due: 'yesterday' }],
    ['priority', { priority: 'Urgent' }],
    ['priority', { priority: 'High,urgent' }],
    ['label', { label: 'not-an-id' }],
    ['label', { label: randomUUID() }],
    ['q', { q: 'x'.repeat(501) }],
    ['tz', { tz: 'Mars/Olympus_Mons' }],
    ['assignee', { assignee: 'bob' }],
    ['dueFrom', { dueFrom: 'tomorrow' }],
    ['dueFrom', { dueFrom: '2031-06-01' }],
    ['dueBefore', { dueBefore: '2031-13-01T00:00:00Z' }],
  ])('refuses a bad %s with a 400 whose message names it (%j)', async (name, query) => {
    const res = await ctx.api.get('/api/tasks').query(query).set(admin.auth).expect(400);
    expect(res.body.message).toContain(name);
    expect(res.body.errors?.[0]?.path).toBe(name);
  });

  it('accepts a search of exactly 500 characters', async () => {
    await ctx.api
      .get('/api/tasks')
      .query({ q: 'x'.repeat(500) })
      .set(admin.auth)
      .expect(200);
  });
});

describe(`due windows by calendar day in every time zone (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  // The far ends of the clock (UTC+14, UTC-11) and a zone with daylight saving time: in each,
  // "today" is the date it is there, matched against each due date's day (midnight UTC of the
  // day, as the web app sends a chosen date), whatever the hour in UTC.
  const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Los_Angeles'];
  const bareDay = (timeZone: string, plusDays: number) => {
    const { year, month, day } = dateIn(timeZone);
    return new Date(Date.UTC(year, month - 1, day + plusDays)).toISOString();
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx, 'member');
    for (const zone of zones) {
      for (const plus of [-1, 0, 1, 6, 7]) {
        await createTask(ctx, admin, [member.id], {
          title: `${zone} ${plus}`,
          dueDate: bareDay(zone, plus),
        });
      }
    }
  });
  afterAll(() => ctx.close());

  const titlesIn = async (due: string, tz: string) =>
    (
      (await ctx.api.get('/api/tasks').query({ due, tz, limit: '100' }).set(admin.auth).expect(200))
        .body as TaskListResponse
    ).tasks
      .map((task) => task.title)
      .filter((title) => title.startsWith(`${tz} `))
      .sort();

  it.each(zones)('today, week and later in %s are its dates', async (tz) => {
    expect(await titlesIn('today', tz)).toEqual([`${tz} 0`]);
    expect(await titlesIn('week', tz)).toEqual([`${tz} 0`, `${tz} 1`, `${tz} 6`]);
    expect(await titlesIn('later', tz)).toEqual([`${tz} 7`]);
  });
});

describe(`overdue counts of a filtered list as time passes (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let ana: Session;
  let tag: Label;
  // Minutes, not hours: the test sessions' tokens last an hour.
  const STEP = 10 * 60_000;
  const start = Date.now();
  const made: Task[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    ana = await signUp(ctx, 'member');
    tag = await createLabel(ctx, admin, 'Watch', '#0055aa');
    // Due a step ago, in one step, in two; and a High task due a step ago, which the
    // priority filter leaves out.
    const specs: Array<[number, 'Low' | 'High']> = [
      [-1, 'Low'],
      [1, 'Low'],
      [2, 'Low'],
      [-1, 'High'],
    ];
    for (const [steps, priority] of specs) {
      const task = await createTask(ctx, admin, [ana.id], {
        title: `Heron ${steps} ${priority}`,
        priority,
        labels: [tag._id],
      });
      await setDueDate(ctx, task._id, start + steps * STEP);
      made.push(task);
    }
  });
  afterAll(() => ctx.close());

  const ids = (...n: number[]) => n.map((i) => made[i]!._id).sort();
  // The list is read afresh each time; its counts may be remembered: they must agree.
  const overdue = async (session: Session, query: Record<string, string>) => {
    const page = (
      await ctx.api
        .get('/api/tasks')
        .query({ due: 'overdue', limit: '100', ...query })
        .set(session.auth)
        .expect(200)
    ).body as TaskListResponse;
    expect(page.statusSummary.all, JSON.stringify(query)).toBe(page.tasks.length);
    expect(page.statusSummary.pendingTasks, JSON.stringify(query)).toBe(page.tasks.length);
    return page.tasks.map((task) => task._id).sort();
  };
  const filters: Array<[() => Session, Record<string, string>]> = [
    [() => admin, { priority: 'Low' }],
    [() => admin, { priority: 'Low', label: '' }],
    [() => admin, { priority: 'Low', assignee: '' }],
    [() => ana, { priority: 'Low' }],
  ];
  const each = async (expected: string[]) => {
    for (const [session, query] of filters) {
      const sent = { ...query };
      if ('label' in sent) sent.label = tag._id;
      if ('assignee' in sent) sent.assignee = ana.id;
      expect(await overdue(session(), sent), JSON.stringify(sent)).toEqual(expected);
    }
  };

  it('counts what is overdue at each request, though nothing was written', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start);
      await each(ids(0));
      vi.setSystemTime(start + STEP - 1);
      await each(ids(0));
      // The second Low task falls due: counted at once.
      vi.setSystemTime(start + STEP + 1);
      await each(ids(0, 1));
      // A clock that reads earlier than the last count gets its own instant's answer.
      vi.setSystemTime(start + STEP / 2);
      await each(ids(0));
      vi.setSystemTime(start + 3 * STEP);
      await each(ids(0, 1, 2));
      // A write: the first task done is no longer overdue.
      await ctx.api
        .put(`/api/tasks/${made[0]!._id}/status`)
        .set(admin.auth)
        .send({ status: 'Completed' })
        .expect(200);
      await each(ids(1, 2));
    } finally {
      vi.useRealTimers();
    }
  });
});
