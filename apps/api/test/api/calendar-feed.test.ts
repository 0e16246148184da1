import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const PUBLIC_URL = 'https://tasks.example.com';

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string;
  allDay: boolean;
  start: string;
  url: string | null;
}

/** Parses a feed with ical.js (which throws on text that is not iCalendar). */
function parseFeed(text: string): { name: unknown; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  expect(calendar.getFirstPropertyValue('prodid')).toBeTruthy();
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    expect(component.getFirstPropertyValue('dtstamp')).toBeTruthy();
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      allDay: event.startDate.isDate,
      start: event.startDate.toString(),
      url: (component.getFirstPropertyValue('url') as string | null) ?? null,
    };
  });
  return { name: calendar.getFirstPropertyValue('x-wr-calname'), events };
}

describe(`calendar feeds (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext({ publicUrl: PUBLIC_URL });
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const feedOf = async (who: Session) =>
    (await ctx.api.get('/api/calendar/feed').set(who.auth).expect(200)).body as {
      url: string;
      scope: string;
    };
  const pathOf = (url: string) => new URL(url).pathname;

  it('a member’s feed: valid iCalendar with their own tasks only, all-day on the due date', async () => {
    const member = await signUp(ctx, 'member');
    const other = await signUp(ctx, 'member');
    const mine = await createTask(ctx, admin, [member.id], {
      title: 'Write; the, report\\now',
      dueDate: '2026-12-24T23:30:00.000Z',
    });
    const done = await createTask(ctx, admin, [member.id], {
      dueDate: '2026-12-01T09:00:00.000Z',
      todoChecklist: [{ text: 'All of it', completed: true }],
    });
    const theirs = await createTask(ctx, admin, [other.id]);

    const feed = await feedOf(member);
    expect(feed.scope).toBe('mine');
    expect(feed.url).toMatch(new RegExp(`^${PUBLIC_URL}/api/calendar/[0-9a-f-]{36}\\.ics$`));
    // The same address on every call until it is rotated.
    expect((await feedOf(member)).url).toBe(feed.url);

    const res = await ctx.api.get(pathOf(feed.url)).expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    const { events } = parseFeed(res.text);
    expect(events.map((e) => e.uid).sort()).toEqual(
      [`${mine._id}@tasks.example.com`, `${done._id}@tasks.example.com`].sort(),
    );
    expect(res.text).not.toContain(theirs._id);
    const event = events.find((e) => e.uid.startsWith(mine._id))!;
    expect(event).toMatchObject({ summary: mine.title, allDay: true, start: '2026-12-24' });
    expect(event.url).toBe(`${PUBLIC_URL}/user/task-details/${mine._id}`);
    expect(event.description).toContain(`${PUBLIC_URL}/user/task-details/${mine._id}`);
    const completed = events.find((e) => e.uid.startsWith(done._id))!;
    expect(completed.summary).toBe(`✓ ${done.title}`);
    expect(completed.description).toMatch(/^Completed/);

    // Unchanged: the ETag lets a calendar app skip the download.
    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    await ctx.api.get(pathOf(feed.url)).set('If-None-Match', etag).expect(304);
  });

  it('speaks the language its owner chose in the app', async () => {
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id], { priority: 'High' });
    const feed = await feedOf(member);
    const english = parseFeed((await ctx.api.get(pathOf(feed.url)).expect(200)).text);
    expect(english.name).toBe('Task Manager: my tasks');
    expect(english.events[0]!.description).toMatch(/^Pending · High priority\n/);

    await ctx.api.put('/api/auth/profile').set(member.auth).send({ language: 'de' }).expect(200);
    const german = parseFeed((await ctx.api.get(pathOf(feed.url)).expect(200)).text);
    expect(german.name).toBe('Task Manager: meine Aufgaben');
    expect(german.events.map((e) => e.uid)).toEqual([`${task._id}@tasks.example.com`]);
    expect(german.events[0]!.description).toMatch(/^Offen · Priorität Hoch\n/);
  });

  it('members may only have their own tasks; an admin may choose every task', async () => {
    const member = await signUp(ctx, 'member');
    const res = await ctx.api
      .put('/api/calendar/feed')
      .set(member.auth)
      .send({ scope: 'all' })
      .expect(403);
    expect(res.body.message).toMatch(/Only admins/);

    const everyone = await createTask(ctx, admin, [member.id]);
    const adminFeed = await ctx.api
      .put('/api/calendar/feed')
      .set(admin.auth)
      .send({ scope: 'all' })
      .expect(200);
    expect(adminFeed.body.scope).toBe('all');
    const all = parseFeed((await ctx.api.get(pathOf(adminFeed.body.url)).expect(200)).text);
    const event = all.events.find((e) => e.uid.startsWith(everyone._id));
    expect(event?.url).toBe(`${PUBLIC_URL}/admin/tasks/${everyone._id}`);

    await ctx.api.put('/api/calendar/feed').set(admin.auth).send({ scope: 'mine' }).expect(200);
    const own = parseFeed((await ctx.api.get(pathOf(adminFeed.body.url)).expect(200)).text);
    expect(own.events.find((e) => e.uid.startsWith(everyone._id))).toBeUndefined();
  });

  it('rotating ends the old address at once', async () => {
    const member = await signUp(ctx, 'member');
    const old = await feedOf(member);
    await ctx.api.get(pathOf(old.url)).expect(200);
    const rotated = await ctx.api.post('/api/calendar/feed/rotate').set(member.auth).expect(200);
    expect(rotated.body.url).not.toBe(old.url);
    await ctx.api.get(pathOf(old.url)).expect(404);
    await ctx.api.get(pathOf(rotated.body.url)).expect(200);
    expect((await feedOf(member)).url).toBe(rotated.body.url);
  });

  it('a deactivated person’s feed and unknown addresses answer 404', async () => {
    const member = await signUp(ctx, 'member');
    const feed = await feedOf(member);
    await ctx.api
      .patch(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    await ctx.api.get(pathOf(feed.url)).expect(404);
    await ctx.api.get(`/api/calendar/${randomUUID()}.ics`).expect(404);
    await ctx.api.get('/api/calendar/short.ics').expect(404);
    // Signing in is not needed, and a token does not widen anything.
    await ctx.api.get('/api/calendar/feed').expect(401);
  });
});
