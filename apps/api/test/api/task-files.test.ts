import { createHash, randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, type Activity, type Task, type TaskFile } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { FILE_CHUNK_BYTES } from '../../src/files/service.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { captureQueries } from '../helpers/query-capture.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';

const MB = 1024 * 1024;

describe(`task files (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let teammate: Session;
  let outsider: Session;

  beforeAll(async () => {
    ctx = await createTestContext({ maxFileBytes: 2 * MB });
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    teammate = await signUp(ctx, 'member');
    outsider = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const newTask = () => createTask(ctx, admin, [member.id, teammate.id]);
  const upload = (session: Session | undefined, taskId: string, data: Buffer, name: string) => {
    const req = ctx.api.post(`/api/tasks/${taskId}/files`);
    return (session ? req.set(session.auth) : req).attach('file', data, name);
  };
  const storedFiles = async () =>
    Number(
      (
        await ctx.db
          .selectFrom('task_files')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('admins and assignees attach files; the task lists them; anyone who sees it downloads', async () => {
    const task = await newTask();
    const data = Buffer.from('hello, world\n');
    const res = await upload(member, task._id, data, 'notes.txt').expect(201);
    const file = res.body as TaskFile;
    expect(file).toEqual({
      _id: expect.any(String),
      taskId: task._id,
      name: 'notes.txt',
      size: data.length,
      contentType: 'text/plain',
      uploadedBy: member.id,
      createdAt: expect.any(String),
    });
    await upload(admin, task._id, Buffer.from('x'), 'a.bin').expect(201);
    const seen = (await ctx.api.get(`/api/tasks/${task._id}`).set(teammate.auth)).body as Task;
    expect(seen.files.map((f) => f.name)).toEqual(['notes.txt', 'a.bin']);
    expect(seen.attachments).toEqual(task.attachments);
    const download = await ctx.api.get(`/api/files/${file._id}`).set(teammate.auth).expect(200);
    expect(download.text).toBe(data.toString());
    await ctx.api.get(`/api/files/${file._id}`).set(outsider.auth).expect(404);
    await ctx.api.get(`/api/files/${file._id}`).expect(401);
    await ctx.api.get(`/api/files/${randomUUID()}`).set(admin.auth).expect(404);
  });

  it('gives the task a new version (ETag) when a file is added or removed', async () => {
    const task = await newTask();
    const etag = async () =>
      String(
        (await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200)).headers.etag,
      );
    const first = await etag();
    const file = (await upload(member, task._id, Buffer.from('x'), 'x.txt').expect(201))
      .body as TaskFile;
    const second = await etag();
    expect(second).not.toBe(first);
    // A browser revalidating its copy with the old version gets the new task, not a 304.
    const revalidated = await ctx.api
      .get(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .set('If-None-Match', first)
      .expect(200);
    expect((revalidated.body as Task).files).toHaveLength(1);
    await ctx.api.delete(`/api/files/${file._id}`).set(member.auth).expect(200);
    expect(await etag()).not.toBe(second);
  });

  it('refuses uploads from those who cannot see the task, before storing anything', async () => {
    const task = await newTask();
    const before = await storedFiles();
    await upload(outsider, task._id, Buffer.from('x'), 'x.txt').expect(404);
    await upload(undefined, task._id, Buffer.from('x'), 'x.txt').expect(401);
    await upload(admin, randomUUID(), Buffer.from('x'), 'x.txt').expect(404);
    const missing = await ctx.api
      .post(`/api/tasks/${task._id}/files`)
      .set(admin.auth)
      .field('other', 'value')
      .expect(400);
    expect(missing.body.message).toBe(apiMessages.fileMissing);
    await ctx.api
      .post(`/api/tasks/${task._id}/files`)
      .set(admin.auth)
      .attach('wrong', Buffer.from('x'), 'x.txt')
      .expect(400);
    expect(await storedFiles()).toBe(before);
  });

  it('refuses an empty file with 400, saying so, and keeps nothing of it', async () => {
    const task = await newTask();
    const before = await storedFiles();
    const res = await upload(admin, task._id, Buffer.alloc(0), 'notes.txt').expect(400);
    expect(res.body.message).toBe(apiMessages.fileEmpty);
    expect(await storedFiles()).toBe(before);
    await upload(admin, task._id, Buffer.from('x'), 'notes.txt').expect(201);
  });

  it('shortens a name over 255 characters in its middle, keeping its extension', async () => {
    const task = await newTask();
    const long = `${'quarterly-report-'.repeat(20)}final.pdf`;
    const file = (await upload(admin, task._id, Buffer.from('%PDF'), long).expect(201))
      .body as TaskFile;
    expect([...file.name]).toHaveLength(255);
    expect(file.name.startsWith('quarterly-report-quarterly-report-')).toBe(true);
    expect(file.name.endsWith('.pdf')).toBe(true);
    // A name without an extension (or a dot far from its end) is cut at 255.
    const plain = (await upload(admin, task._id, Buffer.from('x'), 'x'.repeat(300)).expect(201))
      .body as TaskFile;
    expect(plain.name).toBe('x'.repeat(255));
  });

  it('refuses a file over MAX_FILE_MB with 413 and keeps none of it', async () => {
    const task = await newTask();
    const before = await storedFiles();
    await upload(admin, task._id, Buffer.alloc(2 * MB), 'exact.bin').expect(201);
    const res = await upload(admin, task._id, Buffer.alloc(2 * MB + 1), 'big.bin').expect(413);
    // It says how large a file may be, in words and in bytes (the web app shows it in its language).
    expect(res.body).toMatchObject({
      message: `${apiMessages.fileTooLarge}: at most 2 MB`,
      code: 'file_too_large',
      maxBytes: 2 * MB,
    });
    expect(await storedFiles()).toBe(before + 1);
    const chunks = await ctx.db
      .selectFrom('task_file_chunks')
      .innerJoin('task_files', 'task_files.id', 'task_file_chunks.file_id')
      .select('task_files.name')
      .where('task_files.name', '=', 'big.bin')
      .execute();
    expect(chunks).toEqual([]);
  });

  it('serves every file as a download: attachment with RFC 6266 name, nosniff, sandbox CSP', async () => {
    const task = await newTask();
    const html = Buffer.from('<script>alert(document.cookie)</script>');
    const file = (await upload(member, task._id, html, 'rapport "final" ✓.html').expect(201))
      .body as TaskFile;
    const res = await ctx.api.get(`/api/files/${file._id}`).set(admin.auth).expect(200);
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="rapport \\"final\\" \?\.html"; /);
    expect(disposition).toContain("filename*=UTF-8''rapport%20%22final%22%20%E2%9C%93.html");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-length']).toBe(String(html.length));
    // A path in the name is dropped.
    const pathy = await upload(member, task._id, Buffer.from('x'), '../../etc/passwd').expect(201);
    expect(pathy.body.name).toBe('passwd');
  });

  it('its uploader or an admin deletes it; the history records adding and removing', async () => {
    const task = await newTask();
    const mine = (await upload(member, task._id, Buffer.from('1'), 'one.txt')).body as TaskFile;
    const again = (await upload(member, task._id, Buffer.from('2'), 'two.txt')).body as TaskFile;
    await ctx.api.delete(`/api/files/${mine._id}`).set(teammate.auth).expect(403);
    await ctx.api.delete(`/api/files/${mine._id}`).set(outsider.auth).expect(404);
    await ctx.api.delete(`/api/files/${mine._id}`).set(member.auth).expect(200);
    await ctx.api.delete(`/api/files/${again._id}`).set(admin.auth).expect(200);
    await ctx.api.get(`/api/files/${mine._id}`).set(admin.auth).expect(404);
    await ctx.api.delete(`/api/files/${mine._id}`).set(admin.auth).expect(404);
    const history = (await ctx.api.get(`/api/tasks/${task._id}/activity`).set(admin.auth))
      .body as Activity[];
    expect(history.slice(-4).map((entry) => [entry.type, entry.data, entry.actor?._id])).toEqual([
      ['file.added', { fileId: mine._id, name: 'one.txt' }, member.id],
      ['file.added', { fileId: again._id, name: 'two.txt' }, member.id],
      ['file.removed', { fileId: mine._id, name: 'one.txt' }, member.id],
      ['file.removed', { fileId: again._id, name: 'two.txt' }, admin.id],
    ]);
  });

  it('deleting the task deletes its files', async () => {
    const task = await newTask();
    const file = (await upload(admin, task._id, Buffer.from('x'), 'x.txt')).body as TaskFile;
    await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    const left = await ctx.db
      .selectFrom('task_file_chunks')
      .select('file_id')
      .where('file_id', '=', file._id)
      .execute();
    expect(left).toEqual([]);
  });
});

/** Deterministic bytes: piece `index` of a file (64 KB each). */
function piece(index: number): Buffer {
  const buffer = Buffer.alloc(64 * 1024);
  for (let offset = 0; offset < buffer.length; offset += 4)
    buffer.writeUInt32LE(index * 16384 + offset / 4, offset);
  return buffer;
}

describe(`a 25 MB file, streamed both ways with bounded memory (${ENGINE})`, () => {
  let ctx: TestContext;
  let server: Server;
  let base: string;
  let capture: ReturnType<typeof captureQueries>;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    capture = captureQueries(ctx.db);
    const app = createApp({
      db: capture.db,
      config: testConfig,
      logger: pino({ level: 'silent' }),
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    admin = await signUp({ ...ctx, api: request(app) }, 'admin');
    member = await signUp({ ...ctx, api: request(app) }, 'member');
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  const chunkRows = (fileId?: string) => {
    let query = ctx.db
      .selectFrom('task_file_chunks')
      .innerJoin('task_files', 'task_files.id', 'task_file_chunks.file_id')
      .select(['task_file_chunks.seq', 'task_files.id', 'task_files.complete']);
    if (fileId) query = query.where('task_files.id', '=', fileId);
    return query.execute();
  };

  it('writes the chunks while the body arrives, and reads them as the client takes them', async () => {
    const task = await createTask({ ...ctx, api: request(server) }, admin, [member.id]);
    const pieces = 400; // 400 × 64 KB = 25 MB
    const boundary = `----test${randomUUID()}`;
    const expected = createHash('sha256');

    // Upload: the client streams the body; halfway it waits for the server to have stored some.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${base}/api/tasks/${task._id}/files`, {
        method: 'POST',
        headers: {
          ...admin.auth,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      void (async () => {
        const write = (data: Buffer | string) =>
          new Promise<void>((done) => (req.write(data) ? done() : req.once('drain', done)));
        await write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        );
        for (let index = 0; index < pieces; index++) {
          const data = piece(index);
          expected.update(data);
          await write(data);
          if (index === pieces / 2) {
            // 12.5 MB sent: the server has already written most of it to the database.
            const deadline = Date.now() + 20_000;
            while ((await chunkRows()).filter((row) => row.complete === 0).length < 20) {
              if (Date.now() > deadline) throw new Error('no chunk stored while uploading');
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        }
        await write(`\r\n--${boundary}--\r\n`);
        req.end();
      })().catch(reject);
    });
    const { status, body } = await answer;
    expect(status).toBe(201);
    const file = JSON.parse(body) as TaskFile;
    expect(file.size).toBe(25 * MB);
    const rows = await chunkRows(file._id);
    expect(rows.length).toBe((25 * MB) / FILE_CHUNK_BYTES);
    const sizes = await ctx.db
      .selectFrom('task_file_chunks')
      .select('data')
      .where('file_id', '=', file._id)
      .execute();
    expect(sizes.every((row) => row.data.length === FILE_CHUNK_BYTES)).toBe(true);

    // Download: while the client does not read, the server reads only a few chunks ahead.
    capture.take();
    const received = createHash('sha256');
    let bytes = 0;
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/api/files/${file._id}`, { headers: admin.auth }, (res) => {
          expect(res.statusCode).toBe(200);
          res.pause();
          setTimeout(() => {
            const reads = capture
              .take()
              .filter((query) => /task_file_chunks/.test(query.sql)).length;
            try {
              // 100 chunks in all; with backpressure only the socket's buffers' worth are read.
              expect(reads).toBeGreaterThan(0);
              expect(reads).toBeLessThan(40);
            } catch (error) {
              reject(error as Error);
            }
            res.on('data', (data: Buffer) => {
              bytes += data.length;
              received.update(data);
            });
            res.on('end', resolve);
            res.on('error', reject);
            res.resume();
          }, 700);
        })
        .on('error', reject);
    });
    expect(bytes).toBe(25 * MB);
    expect(received.digest('hex')).toBe(expected.digest('hex'));
  }, 120_000);
});
