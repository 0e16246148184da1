import zlib from 'node:zlib';
import sharp from 'sharp';
import { binary } from '../helpers/expectations.js';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * What an attacker might send to the open upload endpoint: files that pretend to be images,
 * files that are images and something else at once, bombs, and bodies that are not the one
 * file the endpoint wants. Each is refused with a JSON 4xx and stores nothing, or (for a
 * harmless polyglot) is re-encoded so that only the picture survives.
 */
const UPLOAD = '/api/auth/upload-image';
/** Every hostile payload carries this marker, so we can look for it in what was stored. */
const MARKER = 'xss-marker-7f3a';
const HTML = `<!doctype html><html><body><script>alert('${MARKER}')</script></body></html>`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert('${MARKER}')</script><rect width="10" height="10"/></svg>`;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real, complete PNG that claims `width` x `height` black-and-white pixels: every row is
 * zeros, so deflate packs 2.5 gigapixels (312 MB of rows) into about 300 KB. Rows are streamed
 * through deflate so that building it never holds the whole image either.
 */
async function pngBomb(width: number, height: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth 1
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(width / 8)); // filter byte + pixels, all zero
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(parts)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF whose screen and single frame claim 65535 x 65535 pixels, in 36 bytes. */
function gifBomb(): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(65535, 0);
  screen.writeUInt16LE(65535, 2);
  screen[4] = 0x80; // a global colour table of two colours
  const frame = Buffer.alloc(10);
  frame[0] = 0x2c;
  frame.writeUInt16LE(65535, 5);
  frame.writeUInt16LE(65535, 7);
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    screen,
    Buffer.from([0, 0, 0, 255, 255, 255]),
    frame,
    Buffer.from([2, 2, 0x4c, 0x01, 0, 0x3b]),
  ]);
}

/** A zip archive holding one stored (uncompressed) file, as a GIFAR appends to a GIF. */
function zipOf(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name);
  const crc = zlib.crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const localPart = Buffer.concat([local, fileName, content]);
  const centralPart = Buffer.concat([central, fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12);
  end.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, end]);
}

/** A JPEG with a comment segment (COM, 0xFFFE) holding `text` right after its start marker. */
function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const payload = Buffer.from(text);
  const segment = Buffer.alloc(4);
  segment[0] = 0xff;
  segment[1] = 0xfe;
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
}

/** A PNG with a tEXt chunk holding `text`, placed before the image data. */
function withPngText(png: Buffer, text: string): Buffer {
  const afterHeader = PNG_SIGNATURE.length + 25; // signature + IHDR (4 + 4 + 13 + 4)
  const chunk = pngChunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1'));
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}

function picture(format: 'png' | 'jpeg' | 'gif', width = 40, height = 30) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .toFormat(format)
    .toBuffer();
}

describe(`upload abuse (${ENGINE})`, () => {
  let ctx: TestContext;
  let bomb: Buffer;
  let mediumBomb: Buffer;
  let png: Buffer;
  let jpeg: Buffer;

  beforeAll(async () => {
    ctx = await createTestContext();
    bomb = await pngBomb(50_000, 50_000);
    mediumBomb = await pngBomb(15_000, 15_000);
    png = await picture('png', 120, 90);
    jpeg = await picture('jpeg', 120, 90);
  });
  afterAll(() => ctx.close());

  const countImages = async () => {
    const row = await ctx.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  const attach = (buffer: Buffer, filename: string, contentType: string) =>
    ctx.api.post(UPLOAD).attach('image', buffer, { filename, contentType });

  /** A plain upload still works and stores one image: the server survived what came before. */
  async function expectNormalUploadWorks() {
    const before = await countImages();
    const res = await attach(png, 'fine.png', 'image/png');
    expect(res.status).toBe(200);
    expect(res.body.imageUrl).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
    expect(await countImages()).toBe(before + 1);
  }

  /** Sends `request`, expects a JSON error with `status` and `message`, and nothing stored. */
  async function expectRefused(request: () => Test, status: number, message: string) {
    const before = await countImages();
    const res = await request();
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message, code: expect.any(String) });
    expect(await countImages()).toBe(before);
    await expectNormalUploadWorks();
  }

  describe('content that pretends to be an image', () => {
    it('refuses HTML with a script, named .png and declared image/png', () =>
      expectRefused(
        () => attach(Buffer.from(HTML), 'avatar.png', 'image/png'),
        400,
        apiMessages.imageType,
      ));

    it('refuses an SVG with a script, named .png and declared image/png', () =>
      expectRefused(
        () => attach(Buffer.from(SVG), 'avatar.png', 'image/png'),
        400,
        apiMessages.imageType,
      ));

    it('refuses an SVG declared image/svg+xml', () =>
      expectRefused(
        () => attach(Buffer.from(SVG), 'logo.svg', 'image/svg+xml'),
        400,
        apiMessages.imageType,
      ));

    it('refuses a PNG signature followed by HTML', () =>
      expectRefused(
        () => attach(Buffer.concat([PNG_SIGNATURE, Buffer.from(HTML)]), 'x.png', 'image/png'),
        400,
        apiMessages.imageType,
      ));

    it('refuses a truncated PNG', () =>
      expectRefused(
        () => attach(png.subarray(0, Math.floor(png.length / 2)), 'cut.png', 'image/png'),
        400,
        apiMessages.imageType,
      ));

    it('refuses a truncated JPEG', () =>
      expectRefused(
        () => attach(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'cut.jpg', 'image/jpeg'),
        400,
        apiMessages.imageType,
      ));

    it('refuses a 0-byte file', () =>
      expectRefused(
        () => attach(Buffer.alloc(0), 'empty.png', 'image/png'),
        400,
        apiMessages.imageRequired,
      ));
  });

  describe('decompression bombs', () => {
    it('refuses a 300 KB PNG that declares 50,000 x 50,000 pixels', async () => {
      expect(bomb.length).toBeLessThan(1024 * 1024);
      await expectRefused(() => attach(bomb, 'bomb.png', 'image/png'), 400, apiMessages.imageType);
    });

    it('refuses a GIF that declares 65,535 x 65,535 pixels', () =>
      expectRefused(() => attach(gifBomb(), 'bomb.gif', 'image/gif'), 400, apiMessages.imageType));

    it("refuses a PNG of 15,000 x 15,000 pixels: under sharp's own limit, over ours", () =>
      expectRefused(() => attach(mediumBomb, 'bomb.png', 'image/png'), 400, apiMessages.imageType));

    it('keeps memory bounded under 20 bombs at once, stores none, and keeps serving', async () => {
      // 225 megapixels: sharp's default limit (268 megapixels) would let each one be decoded,
      // 225 MB apiece; only the service's own pixel limit refuses them from their header.
      expect(mediumBomb.length).toBeLessThan(100 * 1024);
      const before = await countImages();
      const rssBefore = process.memoryUsage().rss;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => attach(mediumBomb, 'bomb.png', 'image/png')),
      );
      const rssAfter = process.memoryUsage().rss;
      for (const res of answers) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: apiMessages.imageType, code: expect.any(String) });
      }
      expect(await countImages()).toBe(before);
      expect(rssAfter - rssBefore).toBeLessThan(200 * 1024 * 1024);
      await expectNormalUploadWorks();
    });
  });

  describe('polyglots that are also a real image: only the picture is kept', () => {
    /** Whatever came in (`format`), what is stored is a WebP encoded from its pixels. */
    async function expectReencoded(
      upload: Buffer,
      filename: string,
      format: 'png' | 'jpeg' | 'gif',
      contentType: string,
    ) {
      expect((await sharp(upload).metadata()).format).toBe(format);
      expect(upload.includes(MARKER)).toBe(true);
      const before = await countImages();
      const res = await attach(upload, filename, contentType);
      expect(res.status).toBe(200);
      expect(await countImages()).toBe(before + 1);
      const id = /\/api\/images\/([0-9a-f-]{36})$/.exec(res.body.imageUrl)![1]!;

      const stored = await ctx.db
        .selectFrom('images')
        .select(['content_type', 'data'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const bytes = Buffer.from(stored.data);
      expect(stored.content_type).toBe('image/webp');
      expect(bytes.includes(MARKER)).toBe(false);
      expect(bytes.includes('<script')).toBe(false);
      expect(bytes.includes('PK\u0003\u0004')).toBe(false);
      expect((await sharp(bytes).metadata()).format).toBe('webp');

      const served = await ctx.api.get(`/api/images/${id}`).buffer(true).parse(binary).expect(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(served.headers['content-security-policy']).toMatch(/\bsandbox\b/);
      expect((served.body as Buffer).equals(bytes)).toBe(true);
    }

    it('a complete PNG with HTML appended after its end', () =>
      expectReencoded(Buffer.concat([png, Buffer.from(HTML)]), 'x.png', 'png', 'image/png'));

    it('a PNG with HTML in a text chunk', async () => {
      const polyglot = withPngText(png, HTML);
      expect((await sharp(polyglot).metadata()).format).toBe('png');
      await expectReencoded(polyglot, 'x.png', 'png', 'image/png');
    });

    it('a GIFAR: a GIF followed by a zip archive', async () => {
      const gifar = Buffer.concat([
        await picture('gif', 40, 30),
        zipOf('index.html', Buffer.from(HTML)),
      ]);
      await expectReencoded(gifar, 'x.gif', 'gif', 'image/gif');
    });

    it('a JPEG with HTML in a comment segment', () =>
      expectReencoded(withJpegComment(jpeg, HTML), 'x.jpg', 'jpeg', 'image/jpeg'));
  });

  describe('requests that are not one file in the field "image"', () => {
    it('refuses several files in one request', () =>
      expectRefused(
        () => {
          let request = ctx.api.post(UPLOAD);
          for (let i = 0; i < 5; i++) request = request.attach('image', png, `p${i}.png`);
          return request;
        },
        400,
        apiMessages.imageRequired,
      ));

    it('refuses a file under another field name', () =>
      expectRefused(
        () => ctx.api.post(UPLOAD).attach('avatar', png, 'p.png'),
        400,
        apiMessages.imageRequired,
      ));

    it('refuses a 2 MB text field with 413, even with a good image', () =>
      expectRefused(
        () =>
          ctx.api
            .post(UPLOAD)
            .field('note', 'a'.repeat(2 * 1024 * 1024))
            .attach('image', png, 'p.png'),
        413,
        apiMessages.bodyTooLarge,
      ));

    it('refuses many small fields', () =>
      expectRefused(
        () => {
          let request = ctx.api.post(UPLOAD);
          for (let i = 0; i < 50; i++) request = request.field(`f${i}`, 'x');
          return request.attach('image', png, 'p.png');
        },
        400,
        apiMessages.imageRequired,
      ));

    it.each([
      ['plain text', 'text/plain', HTML],
      ['raw PNG bytes', 'image/png', 'png'],
      ['raw bytes', 'application/octet-stream', 'png'],
      ['a URL-encoded form', 'application/x-www-form-urlencoded', 'image=abc'],
    ])('refuses a body of %s', (_name, contentType, body) =>
      expectRefused(
        () =>
          ctx.api
            .post(UPLOAD)
            .set('Content-Type', contentType)
            .send(body === 'png' ? png : body),
        400,
        apiMessages.imageRequired,
      ),
    );

    // The route runs before the JSON parser (after its per-IP limit): a JSON body, however
    // large, is never parsed there, only refused as no image.
    it('refuses JSON, even over the body limit, as no image without parsing it', () =>
      expectRefused(
        () =>
          ctx.api
            .post(UPLOAD)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify({ image: 'a'.repeat(2 * 1024 * 1024) })),
        400,
        apiMessages.imageRequired,
      ));

    const boundary = 'abuse-boundary';
    const part = (headers: string, content: Buffer | string) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content)]);

    it.each([
      ['multipart without a boundary', 'multipart/form-data', () => Buffer.from('hello')],
      [
        'multipart that ends in the middle of the file',
        `multipart/form-data; boundary=${boundary}`,
        () =>
          part(
            'Content-Disposition: form-data; name="image"; filename="p.png"\r\nContent-Type: image/png',
            png,
          ),
      ],
      [
        'multipart with a broken part header',
        `multipart/form-data; boundary=${boundary}`,
        () =>
          Buffer.concat([
            part('this is not a header', 'x'),
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]),
      ],
      [
        'multipart whose part has no name',
        `multipart/form-data; boundary=${boundary}`,
        () =>
          Buffer.concat([
            part('Content-Disposition: form-data; filename="p.png"', png),
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]),
      ],
    ])('refuses %s', (_name, contentType, body) =>
      expectRefused(
        () => ctx.api.post(UPLOAD).set('Content-Type', contentType).send(body()),
        400,
        apiMessages.imageRequired,
      ),
    );
  });
});
