import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import {
  killAll,
  startServer,
  tempDir,
  waitForOutput as waitFor,
  type ServerProcess,
} from '../helpers/server-process.js';
import { onlyOn } from '../helpers/only-on.js';
import { ENGINE } from '../helpers/test-app.js';

const running: ServerProcess[] = [];
afterEach(() => killAll(running));

// Each engine's pass starts the server on that engine; configuration errors are checked once,
// in the SQLite pass.
const CHECKED_ONCE = 'the same on both engines: checked in the SQLite pass';

describe(`the server process (${ENGINE} pass)`, () => {
  onlyOn('sqlite', CHECKED_ONCE).it(
    'refuses to start with bad configuration, naming every bad variable',
    async () => {
      const r = startServer({ DATA_DIR: tempDir(), PORT: 'eighty', ADMIN_INVITE_TOKEN: '12' });
      running.push(r);
      expect(await r.exited).toBe(1);
      expect(r.output()).toContain('Invalid configuration');
      expect(r.output()).toContain('PORT');
      expect(r.output()).toContain('ADMIN_INVITE_TOKEN must be exactly 6 digits');
    },
  );

  onlyOn('sqlite', CHECKED_ONCE).it(
    'refuses to start in production without JWT_SECRET',
    async () => {
      const r = startServer({ DATA_DIR: tempDir(), NODE_ENV: 'production' });
      running.push(r);
      expect(await r.exited).toBe(1);
      expect(r.output()).toContain('JWT_SECRET is required when NODE_ENV=production');
    },
  );

  onlyOn('sqlite').it(
    'starts on a fresh SQLite folder, prints a working invite token, and stops on SIGTERM',
    async () => {
      const dataDir = tempDir();
      const r = startServer({ DATA_DIR: dataDir, PORT: '0' });
      running.push(r);
      const [, token] = await waitFor(r, /Admin invite token[^:]*: (\d{6})/);
      const [, port] = await waitFor(r, /listening on http:\/\/localhost:(\d+)/);
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'First Admin',
          email: 'admin@example.com',
          password: 'a-long-password',
          adminInviteToken: token,
        }),
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { role: string }).role).toBe('admin');
      expect(fs.existsSync(path.join(dataDir, 'taskmanager.db'))).toBe(true);
      const secretFile = path.join(dataDir, 'jwt-secret');
      expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);

      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      expect(r.output()).toContain('stopped');

      // A second start keeps the same token and secret: the account still signs in.
      const again = startServer({ DATA_DIR: dataDir, PORT: '0' });
      running.push(again);
      const [, sameToken] = await waitFor(again, /Admin invite token[^:]*: (\d{6})/);
      expect(sameToken).toBe(token);
      const [, port2] = await waitFor(again, /listening on http:\/\/localhost:(\d+)/);
      const login = await fetch(`http://127.0.0.1:${port2}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'a-long-password' }),
      });
      expect(login.status).toBe(200);
    },
    // Two starts through tsx, each compiling the source: on a busy 2-core machine ~10 s each.
    60_000,
  );

  onlyOn('sqlite', CHECKED_ONCE).it(
    'answers requests Node refuses itself with JSON, and keeps connections for 65 s',
    async () => {
      const r = startServer({ DATA_DIR: tempDir(), PORT: '0' });
      running.push(r);
      const [, port] = await waitFor(r, /listening on http:\/\/localhost:(\d+)/);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.headers.get('keep-alive')).toBe('timeout=65');

      // Node's own limit on the size of the headers is 16 KB.
      const huge = await fetch(`http://127.0.0.1:${port}/api/health`, {
        headers: { 'x-padding': 'a'.repeat(20_000) },
      });
      expect(huge.status).toBe(431);
      expect(await huge.json()).toEqual({
        message: apiMessages.headersTooLarge,
        code: expect.any(String),
      });

      const garbage = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () =>
          socket.write('NOT HTTP\r\n\r\n'),
        );
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(garbage).toContain(
        JSON.stringify({ message: apiMessages.malformedRequest, code: 'bad_request' }),
      );

      // The server is still up.
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    },
  );

  onlyOn('postgres').it(
    'starts on PostgreSQL from DATABASE_URL and migrates a new database',
    async () => {
      const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
      const name = `tm_start_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create database ${name}`);
      try {
        const url = new URL(base);
        url.pathname = `/${name}`;
        const r = startServer({
          DATA_DIR: tempDir(),
          PORT: '0',
          DATABASE_URL: url.toString(),
          ADMIN_INVITE_TOKEN: '135790',
        });
        running.push(r);
        const [, port] = await waitFor(r, /listening on http:\/\/localhost:(\d+)/);
        expect(r.output()).toContain('"engine":"postgres"');
        expect(r.output()).not.toContain('Admin invite token');
        const res = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Pg Admin',
            email: 'pg@example.com',
            password: 'a-long-password',
            adminInviteToken: '135790',
          }),
        });
        expect(res.status).toBe(201);
        r.child.kill('SIGTERM');
        expect(await r.exited).toBe(0);
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});
