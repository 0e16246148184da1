import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import fc from 'fast-check';
import request, { type Response } from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { progressOf, statusOf } from '@task-manager/shared';
import { createOpenApiDocument } from '../../src/openapi/document.js';
import { scriptLinks } from '../fuzz/hostile-arbitraries.js';
import { SCRIPT_LINKS } from '../fuzz/hostile-values.js';
import { Obj, safeParse, toJson, preview, type Json } from '../fuzz/json.js';
import {
  FAKE_HASH,
  LONG_AGO,
  ownedTaskFields,
  ownedUserFields,
  plainChecklist,
  pollution,
} from '../fuzz/owned-fields.js';
import { describeRequest, requestArb, type FuzzRequest } from '../fuzz/requests.js';
import { uniqueNumber, type Pools } from '../fuzz/valid-values.js';
import { databaseDigester } from '../helpers/db-digest.js';
import { untilReady } from '../helpers/event-stream.js';
import { buildTask, signUp, type Session } from '../helpers/factories.js';
import { operationsOf, type OpenApiDoc } from '../helpers/openapi.js';
import { buildWorld, tinyPng, type World } from '../helpers/security-world.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * Property-based fuzzing of every documented operation: params, query and bodies of the wrong
 * type, missing and extra fields, 100 KB strings, emoji, RTL, NUL and lone surrogates,
 * `__proto__` / `constructor` / `prototype` keys, SQL and HTML, numbers as strings, arrays for
 * objects, deep nesting, invalid and sometimes valid ids. Properties: never a 5xx; every 4xx
 * is JSON with a `message`; a refused request (or a read) changes no row of any table; an
 * accepted one leaves every task's progress and status as its checklist makes them, the
 * callers' roles as they were, and Object.prototype untouched.
 *
 * The seed is fixed, so a failure reproduces: fast-check prints the seed and the path of the
 * shrunk counterexample. FUZZ_SEED picks another seed; FUZZ_RUNS the runs per operation.
 *
 * What is sent comes from test/fuzz/: hostile-values.ts (the lists), hostile-arbitraries.ts,
 * valid-values.ts (by field name), requests.ts (a request per documented operation) and
 * owned-fields.ts (mass assignment). This file holds the properties and the cases.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
/** FUZZ_STATS=1 prints how often each operation answered each status (is the fuzz deep enough?). */
const STATS = process.env.FUZZ_STATS === '1';
const DOC = createOpenApiDocument() as unknown as OpenApiDoc;

/** A seed per operation, from its id: adding an operation does not reshuffle the others. */
function seedFor(name: string): number {
  let hash = SEED;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

describe(`fuzzing every documented operation (${ENGINE}, seed ${SEED})`, () => {
  let ctx: TestContext;
  let server: Server;
  let api: ReturnType<typeof request>;
  let world: World;
  let pools: Pools;
  let png: Buffer;
  /** The digest after the previous request, while nothing else has changed the data since. */
  let known: string | undefined;
  let statuses: number[] = [];
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  let digester: ReturnType<typeof databaseDigester>;
  const digest = async () => (await digester()).digest;
  const sessions = (): Record<'M1' | 'A1', Session> => ({ M1: world.M1, A1: world.A1 });

  function send(r: FuzzRequest): Promise<Response> {
    const verb = r.method as 'get' | 'put' | 'post' | 'patch' | 'delete';
    let req = api[verb](r.path + r.query);
    if (r.caller === 'forged') req = req.set('Authorization', r.forged);
    if (r.caller === 'M1' || r.caller === 'A1') req = req.set(sessions()[r.caller].auth);
    // The event stream never ends, whatever body comes with the request: read up to its first event.
    if (r.method === 'get' && r.path === '/api/events') req = untilReady(req);
    switch (r.body.kind) {
      case 'json':
        return req.set('Content-Type', r.body.contentType).send(toJson(r.body.json));
      case 'bytes':
        return req.set('Content-Type', r.body.contentType).send(r.body.bytes);
      case 'multipart': {
        for (const [name, value] of r.body.extra) req = req.field(name, value);
        return req.attach(r.body.field, r.body.file, {
          filename: r.body.filename,
          contentType: r.body.fileType,
        });
      }
      default:
        return req;
    }
  }

  /** A caller whose token an accepted request ended (logout, new password) signs in again. */
  async function keepSignedIn(caller: 'M1' | 'A1', r: FuzzRequest, res: Response) {
    const session = sessions()[caller];
    // A profile update that changed the e-mail (with the current password): sign in with it.
    if (typeof res.body?.email === 'string' && res.body._id === session.id) {
      session.email = res.body.email;
    }
    if (typeof res.body?.token === 'string' && res.body._id === session.id) {
      session.token = res.body.token;
      session.auth = { Authorization: `Bearer ${res.body.token}` };
      // A profile update that set a new password: sign-ins from now on need it.
      const sent = r.body.kind === 'json' ? safeParse(toJson(r.body.json)) : undefined;
      if (typeof sent?.newPassword === 'string') session.password = sent.newPassword;
    }
    const profile = await api.get('/api/auth/profile').set(session.auth);
    if (profile.status === 200) return;
    const login = await api
      .post('/api/auth/login')
      .send({ email: session.email, password: session.password });
    expect(login.status, `${caller} could not sign in again`).toBe(200);
    session.token = login.body.token;
    session.auth = { Authorization: `Bearer ${login.body.token}` };
  }

  /** What must hold after any accepted change. */
  async function checkInvariants(where: string) {
    const tasks = await ctx.db
      .selectFrom('tasks')
      .select(['id', 'progress', 'status', 'completed_todo_count', 'created_by'])
      .execute();
    const items = await ctx.db.selectFrom('todo_items').select(['task_id', 'completed']).execute();
    for (const task of tasks) {
      const own = items
        .filter((item) => item.task_id === task.id)
        .map((item) => ({ completed: Boolean(item.completed) }));
      if (own.length === 0) continue;
      const progress = progressOf(own);
      expect(
        {
          progress: task.progress,
          status: task.status,
          count: task.completed_todo_count,
        },
        `${where}: task ${task.id} no longer follows its checklist`,
      ).toEqual({
        progress,
        status: statusOf(progress),
        count: own.filter((item) => item.completed).length,
      });
    }
    const roles = await ctx.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('id', 'in', [world.M1.id, world.A1.id])
      .execute();
    expect(Object.fromEntries(roles.map((row) => [row.id, row.role])), where).toEqual({
      [world.M1.id]: 'member',
      [world.A1.id]: 'admin',
    });
  }

  function expectPrototypesClean(where: string) {
    expect(Object.getOwnPropertyNames(Object.prototype).sort(), where).toEqual(prototypeKeys);
    const probe = {} as Record<string, unknown>;
    expect([probe.role, probe.isAdmin, probe.polluted, probe.completed], where).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  }

  /** The properties every request must have. */
  async function checkRequest(r: FuzzRequest) {
    const where = describeRequest(r);
    const before = known ?? (await digest());
    const res = await send(r);
    if (STATS) statuses.push(res.status);
    expect(res.status, `${where} → ${preview(JSON.stringify(res.body))}`).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.headers['content-type'], `${where}: error type`).toMatch(/^application\/json/);
      expect(res.body?.message, `${where}: error message`).toEqual(expect.any(String));
    }
    expectPrototypesClean(where);
    const after = await digest();
    known = after;
    if (res.status >= 400 || r.method === 'get') {
      // The one GET that may write: a person's calendar address is made on first use.
      const firstFeed = r.method === 'get' && r.path === '/api/calendar/feed';
      const seen = (text: string) =>
        firstFeed ? JSON.stringify({ ...JSON.parse(text), calendar_feeds: null }) : text;
      expect(seen(after), `${where} → ${res.status} changed data`).toBe(seen(before));
      return;
    }
    if (r.caller === 'M1' || r.caller === 'A1') await keepSignedIn(r.caller, r, res);
    await checkInvariants(where);
    known = undefined;
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    digester = databaseDigester(ctx.db, ctx.engine);
    server = http.createServer(ctx.app).listen(0, '127.0.0.1');
    api = request(server);
    world = await buildWorld(ctx);
    png = await tinyPng();
    const disposableUsers = await Promise.all(
      Array.from({ length: 6 }, () => signUp(ctx, 'member')),
    );
    const disposableTasks = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await api
          .post('/api/tasks')
          .set(world.A1.auth)
          .send(buildTask([world.M1.id]))
          .expect(201);
        return res.body.task._id as string;
      }),
    );
    const cursors: string[] = [];
    for (const path of ['/api/tasks?limit=1', '/api/users?limit=1']) {
      const res = await api.get(path).set(world.A1.auth);
      const cursor = res.body?.nextCursor ?? res.headers['x-next-cursor'];
      if (typeof cursor === 'string') cursors.push(cursor);
    }
    const invites = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const res = await api
          .post('/api/invites')
          .set(world.A1.auth)
          .send({ role: 'member', expiresInDays: 1 })
          .expect(201);
        return res.body._id as string;
      }),
    );
    const labels = await Promise.all(
      ['Fuzz red', 'Fuzz green', 'Fuzz blue'].map(async (name) => {
        const res = await api
          .post('/api/labels')
          .set(world.A1.auth)
          .send({ name, color: '#336699' })
          .expect(201);
        return res.body._id as string;
      }),
    );
    const comments = await Promise.all(
      ['First', 'Second'].map(async (body) => {
        const res = await api
          .post(`/api/tasks/${world.T1._id}/comments`)
          .set(world.M1.auth)
          .send({ body })
          .expect(201);
        return res.body._id as string;
      }),
    );
    const files = await Promise.all(
      ['a.txt', 'b.txt'].map(async (name) => {
        const res = await api
          .post(`/api/tasks/${world.T1._id}/files`)
          .set(world.M1.auth)
          .attach('file', Buffer.from(name), name)
          .expect(201);
        return res.body._id as string;
      }),
    );
    const tasks = [world.T1, world.T2, world.T12];
    pools = {
      world,
      users: [world.M2.id, world.A2.id, world.deleted.id, ...disposableUsers.map((u) => u.id)],
      disposableUsers: [world.deleted.id, ...disposableUsers.map((u) => u.id)],
      tasks: tasks.map((task) => task._id),
      disposableTasks,
      items: tasks.flatMap((task) => task.todoChecklist.map((item) => item._id)),
      images: [world.imageId],
      labels,
      invites,
      comments,
      files,
      cursors,
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
  });

  const operations = operationsOf(DOC);
  operations.forEach((entry) => {
    const { method, path, operation } = entry;
    it(`${operation.operationId}: ${method.toUpperCase()} ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArb(DOC, entry, pools, png), (r) => checkRequest(r)),
        { seed: seedFor(operation.operationId), numRuns: RUNS },
      );
      if (STATS) {
        const counts: Record<number, number> = {};
        for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
        console.info(`${operation.operationId}: ${JSON.stringify(counts)}`);
        statuses = [];
      }
    });
  });

  /* -------------------------------------------------------------------------------------- */
  /* Mass assignment: fields the server owns, sent next to valid ones, are ignored.           */
  /* -------------------------------------------------------------------------------------- */

  describe('an accepted request stores no field the caller may not set', () => {
    const userRow = (id: string) =>
      ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const taskRow = (id: string) =>
      ctx.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const sendJson = (
      method: 'post' | 'put',
      url: string,
      session: Session | undefined,
      body: Json,
    ) => {
      let req = api[method](url).set('Content-Type', 'application/json');
      if (session) req = req.set(session.auth);
      return req.send(toJson(body));
    };
    const entriesOf = (record: Record<string, Json>, extra?: Json): Array<[string, Json]> => [
      ...Object.entries(record),
      ...(extra instanceof Obj ? extra.entries : []),
    ];

    afterEach(() => {
      known = undefined;
    });

    it('PUT /api/auth/profile: a member changes only their name, whatever else they send', async () => {
      await fc.assert(
        fc.asyncProperty(
          ownedUserFields(world),
          pollution,
          fc.constantFrom('Ada', 'Grace', 'Zoë'),
          async (owned, extra, name) => {
            const before = await userRow(world.M1.id);
            const res = await sendJson(
              'put',
              '/api/auth/profile',
              world.M1,
              // The e-mail is the member's to change, with their password (issue 18).
              new Obj([
                ...entriesOf(owned, extra).filter(([key]) => key !== 'email'),
                ['name', name],
              ]),
            );
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            expect(res.body).toMatchObject({
              _id: world.M1.id,
              role: 'member',
              email: before.email,
            });
            const after = await userRow(world.M1.id);
            expect(after.name).toBe(name);
            expect({ ...after, name: before.name, updated_at: before.updated_at }).toEqual(before);
            expectPrototypesClean(`profile ${JSON.stringify(owned)}`);
          },
        ),
        { seed: seedFor('mass-assignment profile'), numRuns: 25 },
      );
    });

    it('POST /api/auth/register: a role or id in the body makes no admin and picks no id', async () => {
      await fc.assert(
        fc.asyncProperty(ownedUserFields(world), pollution, async (owned, extra) => {
          const email = `mass-${uniqueNumber()}@example.com`;
          const body = new Obj([
            ...entriesOf(owned, extra).filter(([key]) => key !== 'email'),
            ['name', 'New Member'],
            ['email', email],
            ['password', 'correct-horse-battery'],
          ]);
          const res = await sendJson('post', '/api/auth/register', undefined, body);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          expect(res.body.role).toBe('member');
          const row = await userRow(res.body._id);
          expect(row).toMatchObject({ email, role: 'member', token_version: 0 });
          expect([owned._id, owned.id, world.M2.id, world.A1.id]).not.toContain(row.id);
          expect(row.password_hash).not.toBe(FAKE_HASH);
          expect(row.created_at).not.toBe(LONG_AGO);
          expectPrototypesClean(`register ${JSON.stringify(owned)}`);
        }),
        { seed: seedFor('mass-assignment register'), numRuns: 25 },
      );
    });

    it('POST and PUT /api/users: an admin cannot set ids, token versions or hashes', async () => {
      await fc.assert(
        fc.asyncProperty(ownedUserFields(world), pollution, async (owned, extra) => {
          const email = `made-${uniqueNumber()}@example.com`;
          const created = await sendJson(
            'post',
            '/api/users',
            world.A1,
            new Obj([
              ...entriesOf(owned, extra).filter(([key]) => !['email', 'role'].includes(key)),
              ['name', 'Made By Admin'],
              ['email', email],
              ['password', 'correct-horse-battery'],
            ]),
          );
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          const row = await userRow(created.body._id);
          expect(row).toMatchObject({ email, role: 'member', token_version: 0 });
          expect([owned._id, owned.id]).not.toContain(row.id);
          expect(row.password_hash).not.toBe(FAKE_HASH);
          expect(row.created_at).not.toBe(LONG_AGO);

          const updated = await sendJson(
            'put',
            `/api/users/${row.id}`,
            world.A1,
            new Obj([
              ...entriesOf(owned, extra).filter(([key]) => !['email', 'role'].includes(key)),
              ['name', 'Renamed By Admin'],
            ]),
          );
          expect(updated.status, JSON.stringify(updated.body)).toBe(200);
          const after = await userRow(row.id);
          expect(after.name).toBe('Renamed By Admin');
          expect({ ...after, name: row.name, updated_at: row.updated_at }).toEqual(row);
          expectPrototypesClean(`users ${JSON.stringify(owned)}`);
        }),
        { seed: seedFor('mass-assignment users'), numRuns: 20 },
      );
    });

    it("POST /api/tasks: progress, status, counts, creator, id and dates are the server's", async () => {
      await fc.assert(
        fc.asyncProperty(
          ownedTaskFields(world),
          plainChecklist,
          pollution,
          async (owned, items, extra) => {
            const started = new Date().toISOString();
            const body = buildTask([world.M1.id], { todoChecklist: items });
            const res = await sendJson(
              'post',
              '/api/tasks',
              world.A1,
              new Obj([...Object.entries(body), ...entriesOf(owned, extra)] as Array<
                [string, Json]
              >),
            );
            expect(res.status, JSON.stringify(res.body)).toBe(201);
            const progress = progressOf(items);
            const task = res.body.task;
            expect(task).toMatchObject({
              progress,
              status: statusOf(progress),
              completedTodoCount: items.filter((item) => item.completed).length,
              createdBy: world.A1.id,
            });
            expect([owned._id, owned.id]).not.toContain(task._id);
            expect(task.createdAt >= started).toBe(true);
            const row = await taskRow(task._id);
            expect(row).toMatchObject({
              progress,
              status: statusOf(progress),
              completed_todo_count: task.completedTodoCount,
              created_by: world.A1.id,
              created_at: task.createdAt,
            });
            expectPrototypesClean(`create task ${JSON.stringify(owned)}`);
          },
        ),
        { seed: seedFor('mass-assignment create task'), numRuns: 25 },
      );
    });

    it("PUT /api/tasks/:id: the same fields stay the server's on an update", async () => {
      await fc.assert(
        fc.asyncProperty(
          ownedTaskFields(world),
          plainChecklist,
          pollution,
          async (owned, items, extra) => {
            const created = await api
              .post('/api/tasks')
              .set(world.A1.auth)
              .send(buildTask([world.M1.id]))
              .expect(201);
            const id = created.body.task._id as string;
            const before = await taskRow(id);
            const res = await sendJson(
              'put',
              `/api/tasks/${id}`,
              world.A1,
              new Obj([
                ['title', 'Retitled'],
                ['todoChecklist', items],
                ...entriesOf(owned, extra),
              ] as Array<[string, Json]>),
            );
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            const progress = progressOf(items);
            const after = await taskRow(id);
            expect(after).toMatchObject({
              id,
              title: 'Retitled',
              progress,
              status: statusOf(progress),
              completed_todo_count: items.filter((item) => item.completed).length,
              created_by: world.A1.id,
              created_at: before.created_at,
            });
            expect(after.updated_at).not.toBe(LONG_AGO);
            expectPrototypesClean(`update task ${JSON.stringify(owned)}`);
          },
        ),
        { seed: seedFor('mass-assignment update task'), numRuns: 20 },
      );
    });
  });

  /* -------------------------------------------------------------------------------------- */
  /* Links that would run script are refused wherever a link is stored.                       */
  /* -------------------------------------------------------------------------------------- */

  describe('a link with a script scheme is refused (400) and changes nothing', () => {
    /** Every place a link is stored, as a request carrying `link`. */
    const places: Array<[string, (link: string) => Promise<Response>]> = [
      [
        'POST /api/tasks attachments',
        (link) =>
          api
            .post('/api/tasks')
            .set(world.A1.auth)
            .send(buildTask([world.M1.id], { attachments: [link] })),
      ],
      [
        'PUT /api/tasks/:id attachments',
        (link) =>
          api
            .put(`/api/tasks/${world.T1._id}`)
            .set(world.A1.auth)
            .send({ attachments: ['https://example.com/ok', link] }),
      ],
      [
        'POST /api/auth/register profileImageUrl',
        (link) =>
          api.post('/api/auth/register').send({
            name: 'Linky',
            email: `link-${uniqueNumber()}@example.com`,
            password: 'correct-horse-battery',
            profileImageUrl: link,
          }),
      ],
      [
        'PUT /api/auth/profile profileImageUrl',
        (link) => api.put('/api/auth/profile').set(world.M1.auth).send({ profileImageUrl: link }),
      ],
      [
        'POST /api/users profileImageUrl',
        (link) =>
          api
            .post('/api/users')
            .set(world.A1.auth)
            .send({
              name: 'Linky',
              email: `link-${uniqueNumber()}@example.com`,
              password: 'correct-horse-battery',
              profileImageUrl: link,
            }),
      ],
      [
        'PUT /api/users/:id profileImageUrl',
        (link) =>
          api.put(`/api/users/${world.M2.id}`).set(world.A1.auth).send({ profileImageUrl: link }),
      ],
    ];

    async function expectRefused(
      place: string,
      link: string,
      send: (link: string) => Promise<Response>,
    ) {
      const before = await digest();
      const res = await send(link);
      expect(res.status, `${place} ${JSON.stringify(link)} → ${JSON.stringify(res.body)}`).toBe(
        400,
      );
      expect(res.body.message).toEqual(expect.any(String));
      expect(await digest(), `${place} ${JSON.stringify(link)} changed data`).toBe(before);
    }

    for (const [place, send] of places) {
      it(`${place}: every known script link`, async () => {
        for (const link of SCRIPT_LINKS) await expectRefused(place, link, send);
        known = undefined;
      });
      it(`${place}: generated script links`, async () => {
        await fc.assert(
          fc.asyncProperty(scriptLinks, (link) => expectRefused(place, link, send)),
          { seed: seedFor(`script links ${place}`), numRuns: 15 },
        );
        known = undefined;
      });
    }
  });

  /* -------------------------------------------------------------------------------------- */
  /* Characters no text may hold: NUL (PostgreSQL cannot store it), the other C0 controls,     */
  /* U+FFFE/U+FFFF and lone surrogates (XML, so the spreadsheets, cannot carry them).          */
  /* -------------------------------------------------------------------------------------- */

  it.each([
    ['NUL', 'a\u0000b'],
    ['ANSI escapes', 'Mallory\u0001\u000b\u001b[31m'],
    ['U+FFFE', 'a\uFFFEb'],
    ['U+FFFF', 'a\uFFFFb'],
    ['a lone surrogate', 'a\ud800b'],
  ])(
    'refuses text with %s with a 400 on both engines, in every text field, and changes nothing',
    async (_what, nul) => {
      // Lone surrogates cannot be percent-encoded (a browser sends U+FFFD): the URL cases skip them.
      const inUrl = !/[\ud800-\udfff]/.test(nul);
      const cursor = Buffer.from(JSON.stringify([nul, randomUUID()])).toString('base64url');
      const requests: Array<[string, () => Promise<Response>]> = [
        [
          'register e-mail',
          () =>
            api
              .post('/api/auth/register')
              .send({ name: 'N', email: `x${nul}@example.com`, password: 'correct-horse-battery' }),
        ],
        [
          'login e-mail',
          () =>
            api
              .post('/api/auth/login')
              .send({ email: `x${nul}@example.com`, password: 'whatever-it-is' }),
        ],
        ['profile name', () => api.put('/api/auth/profile').set(world.M1.auth).send({ name: nul })],
        [
          'user e-mail',
          () =>
            api
              .put(`/api/users/${world.M2.id}`)
              .set(world.A1.auth)
              .send({ email: `x${nul}@example.com` }),
        ],
        [
          'task title',
          () =>
            api
              .post('/api/tasks')
              .set(world.A1.auth)
              .send(buildTask([world.M1.id], { title: nul })),
        ],
        [
          'task attachment',
          () =>
            api
              .put(`/api/tasks/${world.T1._id}`)
              .set(world.A1.auth)
              .send({ attachments: [`https://example.com/${nul}`] }),
        ],
        [
          'checklist text',
          () =>
            api
              .put(`/api/tasks/${world.T1._id}/todo`)
              .set(world.A1.auth)
              .send({ todoChecklist: [{ text: nul }] }),
        ],
        [
          'task description',
          () =>
            api
              .put(`/api/tasks/${world.T1._id}`)
              .set(world.A1.auth)
              .send({ description: `Fine ${nul}` }),
        ],
        [
          'new password',
          () =>
            api
              .put('/api/auth/profile')
              .set(world.M1.auth)
              .send({ currentPassword: world.M1.password, newPassword: `Long enough ${nul}` }),
        ],
        ...(inUrl
          ? ([
              [
                'user search',
                () => api.get(`/api/users?search=${encodeURIComponent(nul)}`).set(world.A1.auth),
              ],
            ] as Array<[string, () => Promise<Response>]>)
          : []),
        // A forged cursor holding NUL (the other characters are merely compared, never stored).
        ...(nul.includes('\u0000')
          ? ([
              ['task list cursor', () => api.get(`/api/tasks?cursor=${cursor}`).set(world.M1.auth)],
            ] as Array<[string, () => Promise<Response>]>)
          : []),
      ];
      for (const [what, send] of requests) {
        const before = await digest();
        const res = await send();
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.message).toEqual(expect.any(String));
        expect(await digest(), `${what} changed data`).toBe(before);
      }
      known = undefined;
    },
  );
});
