import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../src/config.js';
import { buildUser } from '../helpers/factories.js';
import { createTestContext, ENGINE } from '../helpers/test-app.js';

describe(`SIGNUP_MODE (${ENGINE})`, () => {
  it('defaults to open, the spec behaviour', async () => {
    expect(parseEnv({}).SIGNUP_MODE).toBe('open');
    const ctx = await createTestContext();
    try {
      await ctx.api.post('/api/auth/register').send(buildUser()).expect(201);
    } finally {
      await ctx.close();
    }
  });

  it('invite refuses a plain sign-up with 403 and a clear message', async () => {
    expect(parseEnv({ SIGNUP_MODE: 'invite' }).SIGNUP_MODE).toBe('invite');
    const ctx = await createTestContext({ signupMode: 'invite' });
    try {
      const res = await ctx.api.post('/api/auth/register').send(buildUser()).expect(403);
      expect(res.body).toEqual({
        message: 'Sign-up is by invitation only: ask an admin for an invitation link',
        code: 'signup_invite_only',
      });
      expect(await ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('refuses an unknown mode, and SMTP_URL without PUBLIC_URL', () => {
    expect(() => parseEnv({ SIGNUP_MODE: 'closed' })).toThrow(/SIGNUP_MODE/);
    expect(() => parseEnv({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(/PUBLIC_URL/);
    expect(() => parseEnv({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
    const env = parseEnv({
      SMTP_URL: 'smtp://mail.example.com:587',
      PUBLIC_URL: 'https://tasks.example.com/',
    });
    expect(env.PUBLIC_URL).toBe('https://tasks.example.com');
  });
});
