import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { sweepUnclaimedImages } from '../../src/images/service.js';
import { buildUser, createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * Profile photos are this server's images only: an upload is answered with its relative path,
 * a photo link is accepted only as that path (or an absolute URL of this very server), the
 * image becomes the user's own, and uploads nobody claims are swept after their grace period.
 */
const UPLOAD = '/api/auth/upload-image';
/** The host the tests' requests are sent to, as a browser on the real address would send it. */
const HOST = 'tasks.example.com';
const HOUR = 3_600_000;

const tinyPng = () =>
  sharp({ create: { width: 10, height: 10, channels: 3, background: '#36c' } })
    .png()
    .toBuffer();

function expectError(res: Response, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.message).toBe(message);
}

describe(`profile photos are this server's images (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let png: Buffer;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    png = await tinyPng();
  });
  afterAll(() => ctx.close());

  /** Uploads a photo: its id and the path the answer gave. */
  async function upload(): Promise<{ id: string; path: string }> {
    const res = await ctx.api.post(UPLOAD).set('Host', HOST).attach('image', png, 'me.png');
    expect(res.status).toBe(200);
    const path = res.body.imageUrl as string;
    expect(path).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
    return { id: path.split('/').pop()!, path };
  }

  const ownerOf = async (id: string) =>
    (await ctx.db.selectFrom('images').select('owner_id').where('id', '=', id).executeTakeFirst())
      ?.owner_id;
  const imageExists = async (id: string) => (await ownerOf(id)) !== undefined;
  const storedLink = async (userId: string) =>
    (
      await ctx.db
        .selectFrom('users')
        .select('profile_image_url')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).profile_image_url;

  /**
   * Every route that takes a photo link, as a request setting `link`; `userId` names the user
   * whose photo it set (after the request, for the sign-up routes) or undefined when none was made.
   */
  interface Place {
    name: string;
    send(link: unknown): Promise<{ res: Response; userId?: string }>;
  }
  const places = (): Place[] => {
    const create = (path: string, asAdmin: boolean) => async (link: unknown) => {
      const body = buildUser({ profileImageUrl: link });
      let request = ctx.api.post(path).set('Host', HOST);
      if (asAdmin) request = request.set(admin.auth);
      const res = await request.send(body);
      return { res, userId: res.body._id as string | undefined };
    };
    return [
      { name: 'POST /api/auth/register', send: create('/api/auth/register', false) },
      { name: 'POST /api/users', send: create('/api/users', true) },
      {
        name: 'PUT /api/auth/profile',
        send: async (link) => {
          const member = await signUp(ctx);
          const res = await ctx.api
            .put('/api/auth/profile')
            .set('Host', HOST)
            .set(member.auth)
            .send({ profileImageUrl: link });
          return { res, userId: member.id };
        },
      },
      {
        name: 'PUT /api/users/:id',
        send: async (link) => {
          const member = await signUp(ctx);
          const res = await ctx.api
            .put(`/api/users/${member.id}`)
            .set('Host', HOST)
            .set(admin.auth)
            .send({ profileImageUrl: link });
          return { res, userId: member.id };
        },
      },
    ];
  };

  describe('the upload answer', () => {
    it('is the relative path of the image, whatever the Host header says', async () => {
      const res = await ctx.api
        .post(UPLOAD)
        .set('Host', 'evil.example')
        .set('X-Forwarded-Host', 'evil.example')
        .attach('image', png, 'me.png')
        .expect(200);
      expect(res.body.imageUrl).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
      await ctx.api.get(res.body.imageUrl).expect(200);
    });

    it('leaves the image unclaimed, even for a signed-in caller', async () => {
      const res = await ctx.api
        .post(UPLOAD)
        .set(admin.auth)
        .attach('image', png, 'me.png')
        .expect(200);
      expect(await ownerOf(res.body.imageUrl.split('/').pop())).toBeNull();
    });
  });

  describe.each(places().map((place) => [place.name, place] as const))('%s', (_name, place) => {
    it.each([
      ['an image on another server', () => 'https://example.com/me.png'],
      ['our image path on another host', (id: string) => `https://evil.example/api/images/${id}`],
      [
        'our image path on a host that starts like ours',
        (id: string) => `https://${HOST}.evil.example/api/images/${id}`,
      ],
      ['our host on another port', (id: string) => `https://${HOST}:8443/api/images/${id}`],
      ['another path on our host', (id: string) => `https://${HOST}/uploads/${id}.png`],
      ['a query after our image path', (id: string) => `https://${HOST}/api/images/${id}?x=1`],
      ['credentials before our host', (id: string) => `https://me@${HOST}/api/images/${id}`],
      ['a protocol-relative link', (id: string) => `//evil.example/api/images/${id}`],
      ['a protocol-relative link to our host', (id: string) => `//${HOST}/api/images/${id}`],
      ['a relative path that climbs out', (id: string) => `/api/images/${id}/../../x`],
      ['another relative path', () => '/uploads/me.png'],
      ['a backslash path', (id: string) => `\\\\evil.example\\api\\images\\${id}`],
      ['javascript:', () => 'javascript:alert(1)'],
      ['data:', () => 'data:image/png;base64,iVBORw0KGgo='],
      ['an internal address', () => 'http://169.254.169.254/latest/meta-data/'],
      ['an over-long link', (id: string) => `/api/images/${id}${'a'.repeat(3000)}`],
      ['a number', () => 42],
    ])('refuses %s with a 400, and claims nothing', async (_what, link) => {
      const { id } = await upload();
      const { res, userId } = await place.send(link(id));
      expectError(res, 400, validationMessages.invalidImageUrl);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { path: 'profileImageUrl', message: validationMessages.invalidImageUrl },
        ]),
      );
      expect(await ownerOf(id)).toBeNull();
      if (userId) expect(await storedLink(userId)).toBeNull();
    });

    it('accepts the relative path of an upload, and the image becomes the user’s', async () => {
      const { id, path } = await upload();
      const { res, userId } = await place.send(path);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect(res.body.profileImageUrl).toBe(path);
      expect(await storedLink(userId!)).toBe(path);
      expect(await ownerOf(id)).toBe(userId);
    });

    it.each([
      ['http', (id: string) => `http://${HOST}/api/images/${id}`],
      [
        'https, in capitals',
        (id: string) => `HTTPS://TASKS.Example.COM/api/images/${id.toUpperCase()}`,
      ],
      ['with the default port', (id: string) => `http://${HOST}:80/api/images/${id}`],
    ])(
      'accepts an absolute URL of this server (%s) and stores the relative path',
      async (_what, link) => {
        const { id } = await upload();
        const { res, userId } = await place.send(link(id));
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        expect(res.body.profileImageUrl).toBe(`/api/images/${id}`);
        expect(await storedLink(userId!)).toBe(`/api/images/${id}`);
        expect(await ownerOf(id)).toBe(userId);
      },
    );

    it('refuses an image that another account uses, and one that does not exist', async () => {
      const { path } = await upload();
      const owner = await signUp(ctx, 'member', { profileImageUrl: path });
      const taken = await place.send(path);
      expectError(taken.res, 400, apiMessages.profileImageTaken);
      expect(taken.res.body.errors).toEqual([
        { path: 'profileImageUrl', message: apiMessages.profileImageTaken },
      ]);
      expect(await ownerOf(path.split('/').pop()!)).toBe(owner.id);
      if (taken.userId) expect(await storedLink(taken.userId)).toBeNull();

      const missing = await place.send(`/api/images/${randomUUID()}`);
      expectError(missing.res, 400, apiMessages.profileImageNotFound);
      if (missing.userId) expect(await storedLink(missing.userId)).toBeNull();
    });
  });

  it('creates no account when the photo is refused', async () => {
    const body = buildUser({ profileImageUrl: `/api/images/${randomUUID()}` });
    await ctx.api.post('/api/auth/register').send(body).expect(400);
    await ctx.api
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(401);
  });

  it('deletes the former photo when a member changes or removes theirs, and keeps the same one', async () => {
    const first = await upload();
    const member = await signUp(ctx, 'member', { profileImageUrl: first.path });
    const profile = (link: string | null) =>
      ctx.api.put('/api/auth/profile').set(member.auth).send({ profileImageUrl: link });

    // The same photo again changes nothing.
    expect((await profile(first.path).expect(200)).body.profileImageUrl).toBe(first.path);
    expect(await ownerOf(first.id)).toBe(member.id);

    const second = await upload();
    expect((await profile(second.path).expect(200)).body.profileImageUrl).toBe(second.path);
    expect(await imageExists(first.id)).toBe(false);
    await ctx.api.get(first.path).expect(404);
    expect(await ownerOf(second.id)).toBe(member.id);

    // A refused change keeps the photo there is.
    await profile(`/api/images/${randomUUID()}`).expect(400);
    expect(await storedLink(member.id)).toBe(second.path);
    expect(await imageExists(second.id)).toBe(true);

    expect((await profile(null).expect(200)).body.profileImageUrl).toBeNull();
    expect(await imageExists(second.id)).toBe(false);
  });

  it('deletes the former photo when an admin changes a member’s', async () => {
    const first = await upload();
    const member = await signUp(ctx, 'member', { profileImageUrl: first.path });
    const second = await upload();
    await ctx.api
      .put(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ profileImageUrl: second.path })
      .expect(200);
    expect(await imageExists(first.id)).toBe(false);
    expect(await ownerOf(second.id)).toBe(member.id);
  });

  it('deletes a user’s photo with the user', async () => {
    const { id, path } = await upload();
    const member = await signUp(ctx, 'member', { profileImageUrl: path });
    await ctx.api.delete(`/api/users/${member.id}`).set(admin.auth).expect(200);
    expect(await imageExists(id)).toBe(false);
  });

  it('shows relative photo paths everywhere a user appears', async () => {
    const { path } = await upload();
    const member = await signUp(ctx, 'member', { profileImageUrl: path });
    expect(member.user.profileImageUrl).toBe(path);
    const login = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    expect(login.body.profileImageUrl).toBe(path);
    const own = await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
    expect(own.body.profileImageUrl).toBe(path);
    const task = await createTask(ctx, admin, [member.id]);
    const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(read.body.assignedTo[0].profileImageUrl).toBe(path);
  });

  describe('the sweep', () => {
    const age = async (id: string, ms: number) =>
      ctx.db
        .updateTable('images')
        .set({ created_at: new Date(Date.now() - ms).toISOString() })
        .where('id', '=', id)
        .execute();

    it('deletes old unclaimed uploads, and keeps young ones and every photo in use', async () => {
      const old = await upload();
      const young = await upload();
      const used = await upload();
      await signUp(ctx, 'member', { profileImageUrl: used.path });
      await age(old.id, 2 * HOUR);
      await age(used.id, 30 * 24 * HOUR);
      await age(young.id, HOUR / 2);

      expect(await sweepUnclaimedImages(ctx.db, { now: new Date() })).toBeGreaterThanOrEqual(1);
      expect(await imageExists(old.id)).toBe(false);
      await ctx.api.get(old.path).expect(404);
      expect(await imageExists(young.id)).toBe(true);
      expect(await imageExists(used.id)).toBe(true);
      await ctx.api.get(used.path).expect(200);

      // An hour later the young one has had its time too; the photo in use never goes.
      await sweepUnclaimedImages(ctx.db, { now: new Date(Date.now() + HOUR) });
      expect(await imageExists(young.id)).toBe(false);
      expect(await imageExists(used.id)).toBe(true);

      // A sign-up that comes too late is told to upload again.
      const late = await ctx.api
        .post('/api/auth/register')
        .send(buildUser({ profileImageUrl: young.path }));
      expectError(late, 400, apiMessages.profileImageNotFound);
    });

    it('takes a grace period, and is safe to run in several processes at once', async () => {
      const uploads = await Promise.all(Array.from({ length: 6 }, () => upload()));
      const inUse = await signUp(ctx, 'member', { profileImageUrl: uploads[0]!.path });
      const later = new Date(Date.now() + 2 * HOUR);
      expect(await sweepUnclaimedImages(ctx.db, { now: later, graceMs: 3 * HOUR })).toBe(0);
      const counts = await Promise.all(
        Array.from({ length: 3 }, () =>
          sweepUnclaimedImages(ctx.db, { now: later, graceMs: HOUR }),
        ),
      );
      expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(5);
      for (const { id } of uploads.slice(1)) expect(await imageExists(id)).toBe(false);
      expect(await ownerOf(uploads[0]!.id)).toBe(inUse.id);
    });
  });
});

describe(`the quota of unclaimed uploads (${ENGINE})`, () => {
  let ctx: TestContext;
  let png: Buffer;
  /** Room for three small uploads (each counts its bytes and 4 KB), not for a fourth. */
  const QUOTA = 10 * 1024;

  beforeAll(async () => {
    ctx = await createTestContext({ unclaimedImageQuotaBytes: QUOTA });
    png = await tinyPng();
  });
  afterAll(() => ctx.close());

  const uploadAs = (auth?: Record<string, string>) => {
    const request = ctx.api.post(UPLOAD);
    if (auth) request.set(auth);
    return request.attach('image', png, 'me.png');
  };
  const countImages = async () =>
    Number(
      (
        await ctx.db
          .selectFrom('images')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses uploads past it with 429 and Retry-After, until claims or the sweep free room', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 3; i++) paths.push((await uploadAs().expect(200)).body.imageUrl);

    const full = await uploadAs();
    expectError(full, 429, apiMessages.uploadsFull);
    const retryAfter = Number(full.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    // The oldest upload's grace period (an hour) and the next sweep (15 minutes).
    expect(retryAfter).toBeGreaterThan(3600);
    expect(retryAfter).toBeLessThanOrEqual(4500);
    expect(await countImages()).toBe(3);

    // Signed in or not: the quota is everyone's.
    const member = await signUp(ctx);
    expectError(await uploadAs(member.auth), 429, apiMessages.uploadsFull);

    // A claimed photo is no longer waiting: its room is free again.
    await signUp(ctx, 'member', { profileImageUrl: paths[0] });
    const room = await uploadAs().expect(200);
    expectError(await uploadAs(), 429, apiMessages.uploadsFull);

    // The sweep frees the rest once their grace period is over.
    const swept = await sweepUnclaimedImages(ctx.db, { now: new Date(Date.now() + 2 * 3_600_000) });
    expect(swept).toBe(3);
    await ctx.api.get(room.body.imageUrl).expect(404);
    await uploadAs().expect(200);
    expect(await countImages()).toBe(2);
  });
});
