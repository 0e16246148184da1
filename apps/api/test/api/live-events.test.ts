import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, liveEventSchema } from '@task-manager/shared';
import { buildTask, createTask, signUp, type Session } from '../helpers/factories.js';
import {
  listen,
  openEventStream,
  type EventStreamClient,
  type ReceivedEvent,
} from '../helpers/event-stream.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** What an answer that arrives "at once" may take. */
const LIVE_MS = 1000;

describe(`live updates (${ENGINE})`, () => {
  let ctx: TestContext;
  let server: { url: string; close(): Promise<void> };
  let admin: Session;
  let member: Session;
  let other: Session;
  const opened: EventStreamClient[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    server = await listen(ctx.app);
    [admin, member, other] = await Promise.all([
      signUp(ctx, 'admin'),
      signUp(ctx, 'member'),
      signUp(ctx, 'member'),
    ]);
  });
  afterAll(async () => {
    for (const stream of opened) stream.close();
    await server.close();
    await ctx.close();
  });

  async function ticketFor(session: Session): Promise<string> {
    const res = await ctx.api.post('/api/events/ticket').set(session.auth).expect(201);
    return res.body.ticket as string;
  }

  /** A stream as the browser opens it: with a fresh ticket. */
  async function stream(session: Session, query = '', headers: Record<string, string> = {}) {
    const ticket = await ticketFor(session);
    const client = await openEventStream(
      `${server.url}/api/events?ticket=${ticket}${query}`,
      headers,
    );
    expect(client.status, client.body).toBe(200);
    opened.push(client);
    await client.waitFor((event) => event.event === 'ready');
    return client;
  }

  const readyOf = (client: EventStreamClient) =>
    JSON.parse(client.events.find((event) => event.event === 'ready')!.data) as {
      lastEventId: number;
    };

  /** Waits for `type` about `taskId` and returns how long after `since` it arrived. */
  async function arrival(client: EventStreamClient, type: string, taskId: string, since: number) {
    const event = await client.waitFor(
      (received) => received.event === type && JSON.parse(received.data).taskId === taskId,
      3000,
    );
    return event.at - since;
  }

  describe('tickets', () => {
    it('issues a 30-second ticket that opens a stream once', async () => {
      const before = Date.now();
      const res = await ctx.api.post('/api/events/ticket').set(member.auth).expect(201);
      expect(res.body).toEqual({ ticket: expect.any(String), expiresAt: expect.any(String) });
      const expiresIn = Date.parse(res.body.expiresAt) - before;
      expect(expiresIn).toBeGreaterThan(25_000);
      expect(expiresIn).toBeLessThanOrEqual(31_000);

      const url = `${server.url}/api/events?ticket=${res.body.ticket}`;
      const first = await openEventStream(url);
      opened.push(first);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);

      const again = await openEventStream(url);
      expect(again.status).toBe(401);
      expect(JSON.parse(again.body)).toEqual({
        message: apiMessages.notAuthorized,
        code: 'unauthorized',
      });
      // Stored hashed: the ticket itself is nowhere in the database.
      const rows = await ctx.db.selectFrom('event_tickets').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(res.body.ticket);
    });

    it('refuses an expired, unknown or missing ticket with 401', async () => {
      const ticket = await ticketFor(member);
      await ctx.db
        .updateTable('event_tickets')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      for (const query of [`ticket=${ticket}`, 'ticket=made-up', '']) {
        const refused = await openEventStream(`${server.url}/api/events?${query}`);
        expect(refused.status, query).toBe(401);
        expect(JSON.parse(refused.body)).toMatchObject({ code: 'unauthorized' });
      }
      await ctx.api.post('/api/events/ticket').expect(401);
    });

    it('takes a bearer token instead of a ticket, for clients that can send one', async () => {
      const client = await openEventStream(`${server.url}/api/events`, member.auth);
      opened.push(client);
      expect(client.status).toBe(200);
      await client.waitFor((event) => event.event === 'ready');
    });

    it('refuses a deactivated user, with a ticket from before or a token', async () => {
      const leaving = await signUp(ctx, 'member');
      const ticket = await ticketFor(leaving);
      await ctx.api
        .patch(`/api/users/${leaving.id}`)
        .set(admin.auth)
        .send({ active: false })
        .expect(200);
      const withTicket = await openEventStream(`${server.url}/api/events?ticket=${ticket}`);
      expect(withTicket.status).toBe(401);
      expect(JSON.parse(withTicket.body)).toMatchObject({ code: 'account_deactivated' });
      const withToken = await openEventStream(`${server.url}/api/events`, leaving.auth);
      expect(withToken.status).toBe(401);
    });
  });

  describe('the stream', () => {
    it('starts with retry and ready (the head), uncompressed', async () => {
      const client = await stream(member, '', { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(client.headers.get('content-encoding')).toBeNull();
      expect(client.events[0]).toMatchObject({ event: 'retry', data: '3000' });
      expect(client.events[1]?.event).toBe('ready');
      const head = await ctx.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      expect(readyOf(client).lastEventId).toBe(Number(head?.id ?? 0));
    });

    it('delivers every kind of task event within a second of the answer', async () => {
      const adminStream = await stream(admin);
      const memberStream = await stream(member);
      const delays: Record<string, number> = {};
      const expectLive = async (type: string, taskId: string, since: number) => {
        for (const client of [adminStream, memberStream]) {
          const delay = await arrival(client, type, taskId, since);
          expect(delay, type).toBeLessThan(LIVE_MS);
          delays[type] = Math.max(delays[type] ?? 0, delay);
        }
      };

      let since = performance.now();
      const created = await ctx.api
        .post('/api/tasks')
        .set(admin.auth)
        .send(buildTask([member.id], { todoChecklist: [{ text: 'One', completed: false }] }))
        .expect(201);
      since = performance.now();
      const task = created.body.task as { _id: string; todoChecklist: Array<{ _id: string }> };
      await expectLive('task.created', task._id, since);

      await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ title: 'Renamed' });
      since = performance.now();
      await expectLive('task.updated', task._id, since);

      await ctx.api
        .patch(`/api/tasks/${task._id}/todo/${task.todoChecklist[0]!._id}`)
        .set(member.auth)
        .send({ completed: true })
        .expect(200);
      since = performance.now();
      await expectLive('checklist.changed', task._id, since);

      await ctx.api
        .post(`/api/tasks/${task._id}/comments`)
        .set(member.auth)
        .send({ body: 'Done' })
        .expect(201);
      since = performance.now();
      await expectLive('comment.added', task._id, since);

      await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      since = performance.now();
      await expectLive('task.deleted', task._id, since);

      // Every event is a LiveEvent, with its log id.
      const received = memberStream.events.filter((event) => event.event.includes('.'));
      for (const event of received) {
        expect(Number(event.id)).toBeGreaterThan(0);
        expect(liveEventSchema.parse(JSON.parse(event.data)).type).toBe(event.event);
      }
      console.log(`live event delay, in-process (${ENGINE}), ms:`, delays);
    });

    it("never shows a member another member's task, not even its id; admins see all", async () => {
      const outsider = await stream(other);
      const adminStream = await stream(admin);
      const task = await createTask(ctx, admin, [member.id]);
      await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ title: 'Private' });
      await ctx.api
        .post(`/api/tasks/${task._id}/comments`)
        .set(member.auth)
        .send({ body: 'Only for us' })
        .expect(201);
      await ctx.api
        .patch(`/api/tasks/${task._id}/todo/${task.todoChecklist[0]!._id}`)
        .set(member.auth)
        .send({ completed: true });
      await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      await arrival(adminStream, 'task.deleted', task._id, 0);

      // Then a task of their own: once it arrived, anything before it would have too.
      const own = await createTask(ctx, admin, [other.id]);
      await arrival(outsider, 'task.created', own._id, 0);
      const seen = outsider.events.map((event) => `${event.id} ${event.event} ${event.data}`);
      expect(seen.join('\n')).not.toContain(task._id);
      const taskEvents = outsider.events.filter((event) => event.event.startsWith('task.'));
      expect(new Set(taskEvents.map((event) => JSON.parse(event.data).taskId))).toEqual(
        new Set([own._id]),
      );
      // The admin saw both tasks.
      for (const type of ['task.created', 'task.updated', 'comment.added', 'checklist.changed']) {
        await arrival(adminStream, type, task._id, 0);
      }
      await arrival(adminStream, 'task.created', own._id, 0);
    });
  });

  describe('account changes', () => {
    /** Waits for `user.updated` about `userId` on `client`. */
    const userUpdate = (client: EventStreamClient, userId: string) =>
      client.waitFor(
        (received) =>
          received.event === 'user.updated' && JSON.parse(received.data).data.userId === userId,
        3000,
      );

    it("tells the person's tabs and the admins of an account change, and no other member", async () => {
      const person = await signUp(ctx, 'member');
      const own = await stream(person);
      const outsider = await stream(other);
      const adminStream = await stream(admin);

      // An admin renames them: their own tabs (the side menu's name) and the admins' team page.
      await ctx.api
        .put(`/api/users/${person.id}`)
        .set(admin.auth)
        .send({ name: 'Renamed By Admin' })
        .expect(200);
      const told = await userUpdate(own, person.id);
      expect(liveEventSchema.parse(JSON.parse(told.data))).toMatchObject({
        type: 'user.updated',
        taskId: null,
        data: { userId: person.id },
      });
      await userUpdate(adminStream, person.id);

      // Their own change, from another tab: the same.
      let before = own.events.length;
      await ctx.api
        .put('/api/auth/profile')
        .set(person.auth)
        .send({ name: 'Own Name' })
        .expect(200);
      await own.waitFor((received) => received.event === 'user.updated', 3000, before);

      // A language alone shows nowhere else: no event, no refetch of everything.
      before = own.events.length;
      const beforeAdmin = adminStream.events.length;
      await ctx.api.put('/api/auth/profile').set(person.auth).send({ language: 'de' }).expect(200);

      // Then an event the outsider does get: anything before it would have arrived too.
      const theirs = await createTask(ctx, admin, [other.id]);
      await arrival(outsider, 'task.created', theirs._id, 0);
      await arrival(adminStream, 'task.created', theirs._id, 0);
      expect(outsider.events.map((event) => event.data).join('\n')).not.toContain(person.id);
      expect(own.events.slice(before).map((event) => event.event)).not.toContain('user.updated');
      expect(adminStream.events.slice(beforeAdmin).map((event) => event.event)).not.toContain(
        'user.updated',
      );
    });
  });

  describe('ended sessions', () => {
    /** The stream closes (`ended`) before `ms`; false if it is still open then. */
    const endsWithin = (client: EventStreamClient, ms = 3000) =>
      Promise.race([
        client.ended.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
      ]);

    it('closes the stream of a member deactivated, made admin, or signed out everywhere', async () => {
      const cases: Array<[string, (person: Session) => Promise<unknown>]> = [
        [
          'deactivated',
          (person) =>
            ctx.api
              .patch(`/api/users/${person.id}`)
              .set(admin.auth)
              .send({ active: false })
              .expect(200),
        ],
        [
          'made admin',
          (person) =>
            ctx.api
              .patch(`/api/users/${person.id}`)
              .set(admin.auth)
              .send({ role: 'admin' })
              .expect(200),
        ],
        [
          'signed out everywhere',
          (person) =>
            ctx.api
              .post('/api/auth/logout-all')
              .set(person.auth)
              .expect((res) => {
                expect(res.status).toBeLessThan(300);
              }),
        ],
      ];
      for (const [how, end] of cases) {
        const person = await signUp(ctx, 'member');
        const listening = await stream(person);
        const task = await createTask(ctx, admin, [person.id], { title: `Heard before: ${how}` });
        await arrival(listening, 'task.created', task._id, 0);
        await end(person);
        // The next event meant for them (their task renamed) closes their stream instead.
        const before = listening.events.length;
        await ctx.api
          .put(`/api/tasks/${task._id}`)
          .set(admin.auth)
          .send({ title: `Not heard: ${how}` })
          .expect(200);
        expect(await endsWithin(listening), how).toBe(true);
        expect(
          listening.events.slice(before).map((event) => event.event),
          how,
        ).not.toContain('task.updated');
      }
    });

    it('keeps the streams of everyone else open', async () => {
      const staying = await stream(member);
      const leaving = await signUp(ctx, 'member');
      const leavingStream = await stream(leaving);
      const task = await createTask(ctx, admin, [member.id, leaving.id]);
      await arrival(leavingStream, 'task.created', task._id, 0);
      await ctx.api
        .patch(`/api/users/${leaving.id}`)
        .set(admin.auth)
        .send({ active: false })
        .expect(200);
      const since = performance.now();
      await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ title: 'Renamed' });
      await arrival(staying, 'task.updated', task._id, since - 1);
      expect(await endsWithin(leavingStream)).toBe(true);
      expect(await endsWithin(staying, 200)).toBe(false);
    });
  });

  describe('resuming', () => {
    /** The ids of the log's events `session` may receive, after `after`. */
    async function visibleIds(session: Session, after: number) {
      const rows = await ctx.db
        .selectFrom('events')
        .selectAll()
        .where('id', '>', after)
        .orderBy('id')
        .execute();
      return rows
        .filter((row) => (JSON.parse(row.audience) as string[]).includes(session.id))
        .map((row) => String(row.id));
    }

    const liveIds = (events: ReceivedEvent[]) =>
      events.filter((event) => event.event.includes('.')).map((event) => event.id);

    it('replays what happened while away, after Last-Event-ID or ?lastEventId', async () => {
      const first = await stream(member);
      const position = readyOf(first).lastEventId;
      first.close();

      const task = await createTask(ctx, admin, [member.id]);
      await createTask(ctx, admin, [other.id]);
      await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ priority: 'High' });
      await ctx.api
        .post(`/api/tasks/${task._id}/comments`)
        .set(member.auth)
        .send({ body: 'While away' })
        .expect(201);
      const missed = await visibleIds(member, position);
      expect(missed.length).toBeGreaterThanOrEqual(3);

      const byHeader = await stream(member, '', { 'Last-Event-ID': String(position) });
      await byHeader.waitFor((event) => event.id === missed.at(-1));
      expect(liveIds(byHeader.events)).toEqual(missed);

      const byQuery = await stream(member, `&lastEventId=${position}`);
      await byQuery.waitFor((event) => event.id === missed.at(-1));
      expect(liveIds(byQuery.events)).toEqual(missed);
      expect(byQuery.events.some((event) => event.event === 'reset')).toBe(false);

      // And live again after the replay.
      const next = await createTask(ctx, admin, [member.id]);
      await arrival(byQuery, 'task.created', next._id, 0);
    });

    it('sends reset when the position was pruned, too far behind, or unknown', async () => {
      const head = readyOf(await stream(member)).lastEventId;
      // More than 1,000 events behind.
      const at = new Date().toISOString();
      const filler = Array.from({ length: 1001 }, () => ({
        type: 'task.updated',
        task_id: null,
        audience: '[]',
        to_admins: 0,
        data: '{}',
        at,
      }));
      for (let i = 0; i < filler.length; i += 250) {
        await ctx.db
          .insertInto('events')
          .values(filler.slice(i, i + 250))
          .execute();
      }
      const behind = await stream(member, '', { 'Last-Event-ID': String(head) });
      await behind.waitFor((event) => event.event === 'reset');

      // Pruned: the oldest events are gone.
      const oldest = await ctx.db
        .selectFrom('events')
        .select((eb) => eb.fn.min('id').as('id'))
        .executeTakeFirstOrThrow();
      await ctx.db
        .deleteFrom('events')
        .where('id', '<=', Number(oldest.id) + 1)
        .execute();
      const pruned = await stream(member, `&lastEventId=${Number(oldest.id)}`);
      await pruned.waitFor((event) => event.event === 'reset');

      // From the future (another database, a restored backup).
      const future = await stream(member, `&lastEventId=${head + 1_000_000}`);
      await future.waitFor((event) => event.event === 'reset');

      // After a reset the stream carries on live.
      const task = await createTask(ctx, admin, [member.id]);
      await arrival(future, 'task.created', task._id, 0);
    });
  });
});

describe(`live updates: timers (${ENGINE})`, () => {
  it('sends a heartbeat comment and deletes events older than a day', async () => {
    const ctx = await createTestContext({ liveEvents: { heartbeatMs: 100, pruneEveryMs: 50 } });
    const server = await listen(ctx.app);
    try {
      const member = await signUp(ctx, 'member');
      const old = new Date(Date.now() - 25 * 3600_000).toISOString();
      const event = (at: string) => ({
        type: 'task.updated' as const,
        task_id: null,
        audience: '[]',
        to_admins: 0,
        data: '{}',
        at,
      });
      await ctx.db
        .insertInto('events')
        .values([event(old), event(old)])
        .execute();
      // A newer event after them: the old ones are no longer the log's head.
      await ctx.db.insertInto('events').values(event(new Date().toISOString())).execute();
      const client = await openEventStream(`${server.url}/api/events`, member.auth);
      await client.waitFor((event) => event.event === 'comment' && event.data === 'ping', 2000);
      // Whoever notices prunes: here the next write.
      await ctx.api.post('/api/events/ticket').set(member.auth).expect(201);
      const deadline = Date.now() + 3000;
      for (;;) {
        const left = await ctx.db.selectFrom('events').select('id').where('at', '=', old).execute();
        if (left.length === 0) break;
        if (Date.now() > deadline) throw new Error('old event not pruned');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await ctx.db.selectFrom('events').select('at').execute()).not.toEqual([]);
      client.close();
    } finally {
      await server.close();
      await ctx.close();
    }
  });

  it('keeps the newest event, however old, so that no event id is handed out twice', async () => {
    const ctx = await createTestContext({ liveEvents: { pruneEveryMs: 50 } });
    const server = await listen(ctx.app);
    try {
      const admin = await signUp(ctx, 'admin');
      const member = await signUp(ctx, 'member');
      await createTask(ctx, admin, [member.id]);
      await createTask(ctx, admin, [member.id]);
      const ids = async () =>
        (await ctx.db.selectFrom('events').select('id').orderBy('id').execute()).map((row) =>
          Number(row.id),
        );
      const written = await ids();
      expect(written.length).toBeGreaterThan(1);
      const last = written.at(-1)!;
      // The whole log grows old (a quiet day): everything but the newest is pruned.
      await ctx.db
        .updateTable('events')
        .set({ at: new Date(Date.now() - 25 * 3600_000).toISOString() })
        .execute();
      const client = await openEventStream(`${server.url}/api/events`, member.auth);
      const deadline = Date.now() + 3000;
      while ((await ids()).length > 1) {
        if (Date.now() > deadline) throw new Error('old events not pruned');
        await ctx.api.post('/api/events/ticket').set(member.auth).expect(201);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      expect(await ids()).toEqual([last]);
      // The next change's event follows the last one handed out, and reaches the stream.
      const task = await createTask(ctx, admin, [member.id]);
      const next = (await ids()).at(-1)!;
      expect(next).toBeGreaterThan(last);
      await client.waitFor(
        (event) =>
          event.event === 'task.created' &&
          (JSON.parse(event.data) as { taskId?: string }).taskId === task._id,
        3000,
      );
      client.close();
    } finally {
      await server.close();
      await ctx.close();
    }
  });
});
