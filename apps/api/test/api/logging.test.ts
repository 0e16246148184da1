import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** Request logs help follow a request, and never carry a credential. */
describe(`request logs (${ENGINE})`, () => {
  let ctx: TestContext;
  const lines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    ctx = await createTestContext({}, { logger: pino({ level: 'info' }, sink) });
  });
  afterAll(() => ctx.close());

  it('logs method, path, status and a request id, but no password, token or hash', async () => {
    const member = await signUp(ctx, 'member', { password: 'very-secret-passphrase' });
    await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: 'very-secret-passphrase' })
      .expect(200);
    await ctx.api.get('/api/auth/profile?token=query-secret').set(member.auth).expect(200);
    await ctx.api
      .put('/api/auth/profile')
      .set(member.auth)
      .send({ currentPassword: 'very-secret-passphrase', newPassword: 'another-secret-passphrase' })
      .expect(200);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pino's lines, read field by field
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
    const profileRead = entries.find(
      (entry) => entry.req?.method === 'GET' && entry.req?.url === '/api/auth/profile',
    );
    expect(profileRead).toMatchObject({ res: { statusCode: 200 } });
    expect(profileRead?.req.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entries.filter((entry) => entry.req?.method === 'POST')).toHaveLength(2);

    const log = lines.join('\n');
    for (const secret of [
      'very-secret-passphrase',
      'another-secret-passphrase',
      'query-secret',
      member.token,
      member.token.split('.')[1] ?? member.token,
      '$2',
      'authorization',
    ]) {
      expect(log.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});
