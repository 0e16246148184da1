import { Writable } from 'node:stream';
import express from 'express';
import { pino, type Level } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { requestLog } from '../../src/http/request-log.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An app with the request log in front, logging at `level` into `lines`. */
function appLoggingAt(level: Level) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLog(pino({ level }, sink)));
  app.get('/api/things', (req, res) => {
    req.log.warn({ reqId: req.id }, 'a warning from the handler');
    res.json({ id: req.id });
  });
  app.get('/api/health', (_req, res) => res.json({ status: 'ok' }));
  return { app, lines };
}

describe('the request log', () => {
  it('at info: one line per answer, naming the request by the id it was sent', async () => {
    const { app, lines } = appLoggingAt('info');
    const res = await request(app).get('/api/things?secret=1').set('Authorization', 'Bearer t');
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.body).toEqual({ id: res.headers['x-request-id'] });
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toEqual([
      expect.objectContaining({
        req: { id: res.headers['x-request-id'], method: 'GET', url: '/api/things' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    // Never headers (the token) nor the query.
    expect(JSON.stringify(lines)).not.toContain('Bearer');
    expect(JSON.stringify(lines)).not.toContain('secret');
    // Probes are not logged.
    await request(app).get('/api/health').expect(200);
    expect(lines.filter((line) => line.msg === 'request completed')).toHaveLength(1);
  });

  it('at warn: no line per answer, yet every request has its own id and a logger', async () => {
    const { app, lines } = appLoggingAt('warn');
    const first = await request(app).get('/api/things').expect(200);
    const second = await request(app).get('/api/things').expect(200);
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(first.body).toEqual({ id: first.headers['x-request-id'] });
    expect(lines.map((line) => [line.msg, line.reqId])).toEqual([
      ['a warning from the handler', first.headers['x-request-id']],
      ['a warning from the handler', second.headers['x-request-id']],
    ]);
  });
});
