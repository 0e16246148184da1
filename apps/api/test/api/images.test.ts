import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { binary } from '../helpers/expectations.js';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { signUp } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const UPLOAD = '/api/auth/upload-image';
const MAX_BYTES = 5 * 1024 * 1024;
/** What the server stores per image at most, whatever came in. */
const MAX_STORED_BYTES = 100 * 1024;
/** Relative: the answer never names a host (it used to be built from the Host header). */
const IMAGE_URL = /^\/api\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

type Format = 'png' | 'jpeg' | 'webp' | 'gif';

/** A solid picture of the given size, encoded by sharp. */
function picture(format: Format, width = 800, height = 600, background = '#f00') {
  return sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer();
}

const expectJsonError = (res: Response, message: string) => {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ message, code: expect.any(String) });
};

describe(`image upload and serving (${ENGINE})`, () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const upload = (buffer: Buffer, filename = 'photo.png', contentType?: string) =>
    ctx.api
      .post(UPLOAD)
      .attach('image', buffer, contentType ? { filename, contentType } : { filename });

  const countImages = async () => {
    const row = await ctx.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** Uploads, expects 200 {imageUrl}, and returns the image's path on this server and its id. */
  async function uploadOk(buffer: Buffer, filename?: string, contentType?: string) {
    const res = await upload(buffer, filename, contentType).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['imageUrl']);
    const match = IMAGE_URL.exec(res.body.imageUrl);
    expect(match, `unexpected imageUrl ${res.body.imageUrl}`).not.toBeNull();
    return { path: res.body.imageUrl as string, id: match![1]! };
  }

  const fetchImage = (path: string) => ctx.api.get(path).buffer(true).parse(binary).expect(200);

  describe.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
  ] as const)('a %s upload', (format, contentType) => {
    it('is stored as WebP, served by this server with safe caching headers, and shrunk to 512px', async () => {
      const original = await picture(format, 800, 600);
      const before = await countImages();
      const { path, id } = await uploadOk(original, `photo.${format}`, contentType);
      expect(await countImages()).toBe(before + 1);

      const res = await fetchImage(path);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toContain('max-age=31536000');
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['cache-control']).toContain('public');
      expect(res.headers['content-security-policy']).toContain('sandbox');

      const served = res.body as Buffer;
      expect(Buffer.isBuffer(served)).toBe(true);
      const metadata = await sharp(served).metadata();
      expect(metadata.format).toBe('webp');
      expect([metadata.width, metadata.height]).toEqual([512, 384]);
      // Still the same (red) picture.
      const stats = await sharp(served).stats();
      expect(stats.channels[0]!.mean).toBeGreaterThan(200);
      expect(stats.channels[1]!.mean).toBeLessThan(50);

      const stored = await ctx.db
        .selectFrom('images')
        .select(['content_type', 'byte_size', 'width', 'height'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({
        content_type: 'image/webp',
        byte_size: served.length,
        width: 512,
        height: 384,
      });
    });
  });

  it('gives every upload its own address, even for the same bytes', async () => {
    const png = await picture('png', 20, 20);
    const first = await uploadOk(png);
    const second = await uploadOk(png);
    expect(first.id).not.toBe(second.id);
    await fetchImage(first.path);
    await fetchImage(second.path);
  });

  it('keeps small images at their size and bounds tall ones by their height', async () => {
    const small = await fetchImage((await uploadOk(await picture('png', 100, 50))).path);
    const smallMeta = await sharp(small.body as Buffer).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([100, 50]);

    const tall = await fetchImage(
      (await uploadOk(await picture('jpeg', 300, 2000), 'tall.jpg')).path,
    );
    const tallMeta = await sharp(tall.body as Buffer).metadata();
    expect(tallMeta.height).toBe(512);
    expect(tallMeta.width).toBeGreaterThanOrEqual(76);
    expect(tallMeta.width).toBeLessThanOrEqual(77);
  });

  it('strips EXIF metadata from a JPEG', async () => {
    const original = await sharp({
      create: { width: 600, height: 400, channels: 3, background: '#00f' },
    })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-owner', Artist: 'secret-artist' } } })
      .toBuffer();
    // The test picture really carries the metadata.
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes('secret-owner')).toBe(true);

    const res = await fetchImage((await uploadOk(original, 'camera.jpg', 'image/jpeg')).path);
    const served = res.body as Buffer;
    const metadata = await sharp(served).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.exif).toBeUndefined();
    expect(served.includes('secret-owner')).toBe(false);
    expect(served.includes('secret-artist')).toBe(false);
  });

  it('strips EXIF metadata from a PNG', async () => {
    const original = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#0f0' },
    })
      .png()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-png-owner' } } })
      .toBuffer();
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const res = await fetchImage((await uploadOk(original)).path);
    const served = res.body as Buffer;
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    expect(served.includes('secret-png-owner')).toBe(false);
  });

  it('applies the EXIF orientation before dropping it', async () => {
    // 800x400 stored, but "rotate 90° clockwise to view": the upright picture is 400x800.
    const original = await sharp({
      create: { width: 800, height: 400, channels: 3, background: '#f00' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(original).metadata()).orientation).toBe(6);

    const res = await fetchImage((await uploadOk(original, 'rotated.jpg')).path);
    const metadata = await sharp(res.body as Buffer).metadata();
    expect([metadata.width, metadata.height]).toEqual([256, 512]);
    expect(metadata.orientation ?? 1).toBe(1);
  });

  describe('the stored size is bounded', () => {
    /** Gaussian noise: what no encoder can compress, the worst case for the stored size. */
    const noise = (width: number, height: number, channels: 3 | 4) =>
      sharp({
        create: {
          width,
          height,
          channels,
          background: { r: 0, g: 0, b: 0, alpha: 1 },
          noise: { type: 'gaussian', mean: 128, sigma: 120 },
        },
      })
        .png()
        .toBuffer();

    it.each([
      ['an RGB noise PNG of 512 x 512', 512, 512, 3],
      ['an RGBA noise PNG of 512 x 512 (noise in the alpha channel too)', 512, 512, 4],
      ['an RGB noise PNG of 1,200 x 900', 1200, 900, 3],
    ] as const)('stores %s in at most 100 KB', async (_name, width, height, channels) => {
      const original = await noise(width, height, channels);
      expect(original.length).toBeGreaterThan(600 * 1024);
      const { id } = await uploadOk(original, 'noise.png', 'image/png');
      const stored = await ctx.db
        .selectFrom('images')
        .select(['byte_size', 'width', 'height', 'data'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(stored.byte_size).toBe(Buffer.from(stored.data).length);
      expect(stored.byte_size).toBeLessThanOrEqual(MAX_STORED_BYTES);
      // Shrunk only as far as needed: still a usable photo, in its proportions.
      expect(Math.max(stored.width, stored.height)).toBeGreaterThanOrEqual(200);
      expect(stored.width / stored.height).toBeCloseTo(width / height, 1);
      const metadata = await sharp(Buffer.from(stored.data)).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual([
        'webp',
        stored.width,
        stored.height,
      ]);
    });

    it('keeps an ordinary photo at 512 px', async () => {
      const photo = await sharp({
        create: {
          width: 1200,
          height: 900,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .blur(3)
        .jpeg()
        .toBuffer();
      const res = await fetchImage((await uploadOk(photo, 'photo.jpg')).path);
      const metadata = await sharp(res.body as Buffer).metadata();
      expect([metadata.width, metadata.height]).toEqual([512, 384]);
      expect((res.body as Buffer).length).toBeLessThanOrEqual(MAX_STORED_BYTES);
    });

    it.each(['png', 'gif'] as const)('keeps the transparency of a %s', async (format) => {
      // A transparent square with an opaque red disc in the middle.
      const disc = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="16" fill="#f00"/></svg>',
      );
      const original = await sharp(disc).toFormat(format).toBuffer();
      expect((await sharp(original).metadata()).hasAlpha).toBe(true);
      const res = await fetchImage((await uploadOk(original, `disc.${format}`)).path);
      const served = sharp(res.body as Buffer);
      expect((await served.metadata()).hasAlpha).toBe(true);
      const { data, info } = await served.raw().toBuffer({ resolveWithObject: true });
      const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
      expect(alphaAt(1, 1)).toBe(0);
      expect(alphaAt(32, 32)).toBe(255);
    });
  });

  it('serves an image stored before uploads became WebP with the type it was stored as', async () => {
    const id = randomUUID();
    const png = await picture('png', 10, 10);
    await ctx.db
      .insertInto('images')
      .values({
        id,
        content_type: 'image/png',
        data: png,
        byte_size: png.length,
        width: 10,
        height: 10,
        created_at: new Date().toISOString(),
        owner_id: null,
      })
      .execute();
    const res = await fetchImage(`/api/images/${id}`);
    expect(res.headers['content-type']).toBe('image/png');
    expect((res.body as Buffer).equals(png)).toBe(true);
  });

  describe('the type comes from the content', () => {
    it('refuses an HTML file named .png and declared image/png', async () => {
      const before = await countImages();
      const html = Buffer.from(
        '<!doctype html><html><body><script>alert(1)</script></body></html>',
      );
      const res = await upload(html, 'x.png', 'image/png').expect(400);
      expectJsonError(res, apiMessages.imageType);
      expect(apiMessages.imageType).toBe('Only PNG, JPEG, WebP and GIF images are allowed');
      expect(await countImages()).toBe(before);
    });

    it('refuses plain text', async () => {
      const res = await upload(Buffer.from('just some words'), 'notes.txt', 'text/plain').expect(
        400,
      );
      expectJsonError(res, apiMessages.imageType);
    });

    it('accepts a real PNG named .txt and declared text/plain, and serves it re-encoded', async () => {
      const png = await picture('png', 40, 30);
      const { path } = await uploadOk(png, 'notes.txt', 'text/plain');
      const res = await fetchImage(path);
      expect(res.headers['content-type']).toBe('image/webp');
      expect((await sharp(res.body as Buffer).metadata()).format).toBe('webp');
    });

    it('serves a JPEG declared as image/png as the WebP it was stored as', async () => {
      const jpeg = await picture('jpeg', 40, 30);
      const res = await fetchImage((await uploadOk(jpeg, 'x.png', 'image/png')).path);
      expect(res.headers['content-type']).toBe('image/webp');
    });

    it('refuses SVG, even declared as an image', async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      );
      expect((await sharp(svg).metadata()).format).toBe('svg');
      const res = await upload(svg, 'logo.svg', 'image/svg+xml').expect(400);
      expectJsonError(res, apiMessages.imageType);
    });

    it('refuses image formats other than the four (TIFF)', async () => {
      const tiff = await sharp({
        create: { width: 10, height: 10, channels: 3, background: '#f00' },
      })
        .tiff()
        .toBuffer();
      const res = await upload(tiff, 'scan.tiff', 'image/tiff').expect(400);
      expectJsonError(res, apiMessages.imageType);
    });

    it('refuses a truncated PNG', async () => {
      const png = await sharp({
        create: {
          width: 300,
          height: 300,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .png()
        .toBuffer();
      const res = await upload(
        png.subarray(0, Math.floor(png.length / 2)),
        'cut.png',
        'image/png',
      ).expect(400);
      expectJsonError(res, apiMessages.imageType);
    });

    it('refuses an empty file', async () => {
      const before = await countImages();
      const res = await upload(Buffer.alloc(0), 'empty.png', 'image/png').expect(400);
      expectJsonError(res, apiMessages.imageRequired);
      expect(await countImages()).toBe(before);
    });

    it('refuses a decompression bomb: a small file claiming a huge canvas', async () => {
      // 9000 x 5000 = 45 million pixels, over the 40 million limit, in a few hundred KB.
      const bomb = await sharp({
        create: { width: 9000, height: 5000, channels: 3, background: '#fff' },
      })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(bomb.length).toBeLessThan(MAX_BYTES);
      const res = await upload(bomb, 'bomb.png', 'image/png').expect(400);
      expectJsonError(res, apiMessages.imageType);
    });
  });

  describe('missing or oversized files', () => {
    it('refuses a request without a file', async () => {
      const res = await ctx.api.post(UPLOAD).field('name', 'no file here').expect(400);
      expectJsonError(res, apiMessages.imageRequired);
    });

    it('refuses an empty JSON body', async () => {
      const res = await ctx.api.post(UPLOAD).send({}).expect(400);
      expectJsonError(res, apiMessages.imageRequired);
    });

    it('refuses a file under another field name', async () => {
      const before = await countImages();
      const res = await ctx.api
        .post(UPLOAD)
        .attach('photo', await picture('png', 10, 10), 'photo.png')
        .expect(400);
      expectJsonError(res, apiMessages.imageRequired);
      expect(await countImages()).toBe(before);
    });

    it('refuses two files', async () => {
      const png = await picture('png', 10, 10);
      const res = await ctx.api
        .post(UPLOAD)
        .attach('image', png, 'a.png')
        .attach('image', png, 'b.png')
        .expect(400);
      expectJsonError(res, apiMessages.imageRequired);
    });

    it('refuses a real image over 5 MB with 413', async () => {
      const big = await sharp({
        create: {
          width: 1400,
          height: 1300,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128, sigma: 30 },
        },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(big.length).toBeGreaterThan(MAX_BYTES);
      expect((await sharp(big).metadata()).format).toBe('png');
      const before = await countImages();
      const res = await upload(big, 'huge.png', 'image/png').expect(413);
      expectJsonError(res, apiMessages.imageTooLarge);
      expect(apiMessages.imageTooLarge).toBe('Image too large: at most 5 MB');
      expect(await countImages()).toBe(before);
    });

    it('refuses non-image bytes over 5 MB with 413 as well', async () => {
      const res = await upload(Buffer.alloc(MAX_BYTES + 1, 0x41), 'big.png', 'image/png').expect(
        413,
      );
      expectJsonError(res, apiMessages.imageTooLarge);
    });

    it('accepts an image just under 5 MB', async () => {
      const large = await sharp({
        create: {
          width: 1200,
          height: 1400,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128, sigma: 30 },
        },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(large.length).toBeGreaterThan(4.5 * 1024 * 1024);
      expect(large.length).toBeLessThan(MAX_BYTES);
      const res = await fetchImage((await uploadOk(large, 'large.png')).path);
      const metadata = await sharp(res.body as Buffer).metadata();
      expect(metadata.height).toBe(512);
      expect(metadata.width).toBeLessThanOrEqual(512);
    });
  });

  describe('GET /api/images/:id', () => {
    it('answers 404 JSON for an unknown id', async () => {
      const res = await ctx.api.get(`/api/images/${randomUUID()}`).expect(404);
      expectJsonError(res, apiMessages.imageNotFound);
    });

    it.each([
      ['a word', 'not-an-id'],
      ['a long id', 'a'.repeat(500)],
      ['an encoded NUL', '%00'],
      ['a UUID with a NUL appended', `${randomUUID()}%00`],
      ['an id with a quote', "abc'%20or%20'1'='1"],
    ])('answers 404 JSON for a malformed id (%s)', async (_name, id) => {
      const res = await ctx.api.get(`/api/images/${id}`).expect(404);
      expectJsonError(res, apiMessages.imageNotFound);
    });

    it('answers 404 JSON without an id', async () => {
      const res = await ctx.api.get('/api/images/').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof res.body.message).toBe('string');
    });

    it('serves an image to anyone, with no token', async () => {
      const { path } = await uploadOk(await picture('png', 10, 10), 'a.png');
      const res = await fetchImage(path);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    });
  });

  describe('access', () => {
    it('needs no sign-in to upload, and a signed-in member may upload too', async () => {
      await uploadOk(await picture('png', 10, 10));
      const member = await signUp(ctx, 'member');
      const res = await upload(await picture('png', 10, 10))
        .set(member.auth)
        .expect(200);
      expect(res.body.imageUrl).toMatch(IMAGE_URL);
    });

    it('ignores a bad token on this open endpoint', async () => {
      const res = await upload(await picture('png', 10, 10))
        .set('Authorization', 'Bearer not-a-token')
        .expect(200);
      expect(res.body.imageUrl).toMatch(IMAGE_URL);
    });
  });
});

describe(`image upload rate limit (${ENGINE})`, () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ authRateLimit: 3 });
  });
  afterAll(() => ctx.close());

  it('answers 429 with Retry-After once the per-minute limit is used up', async () => {
    const png = await picture('png', 10, 10);
    for (let i = 0; i < 3; i++) {
      await ctx.api.post(UPLOAD).attach('image', png, 'a.png').expect(200);
    }
    const res = await ctx.api.post(UPLOAD).attach('image', png, 'a.png').expect(429);
    expectJsonError(res, apiMessages.tooManyRequests);
    expect(apiMessages.tooManyRequests).toBe('Too many requests, please try again later');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const row = await ctx.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(3);

    // Still limited, also for a request that would otherwise be refused for its content.
    await ctx.api.post(UPLOAD).send({}).expect(429);
  });

  it('counts uploads apart from sign-ups', async () => {
    // The upload limit is used up (previous test); registering has its own budget.
    const member = await signUp(ctx, 'member');
    expect(member.token).toEqual(expect.any(String));
  });
});
