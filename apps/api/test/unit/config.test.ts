import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../src/config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 8000,
      DATA_DIR: './data',
      JWT_EXPIRES_IN: '7d',
      AUTH_RATE_LIMIT: 10,
      BCRYPT_COST: 12,
      LOG_LEVEL: 'info',
      CORS_ORIGIN: [],
      TRUST_PROXY: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ PORT: '', ADMIN_INVITE_TOKEN: '' }).PORT).toBe(8000);
  });

  it('parses origins and numbers', () => {
    const env = parseEnv({
      PORT: '3001',
      CORS_ORIGIN: 'https://a.example.com, http://localhost:5173',
      AUTH_RATE_LIMIT: '20',
      TRUST_PROXY: '1',
    });
    expect(env.PORT).toBe(3001);
    expect(env.CORS_ORIGIN).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(env.AUTH_RATE_LIMIT).toBe(20);
    expect(env.TRUST_PROXY).toBe(1);
  });

  it('lists every bad variable at once', () => {
    try {
      parseEnv({
        PORT: 'eighty',
        ADMIN_INVITE_TOKEN: '12345',
        DATABASE_URL: 'mysql://x',
        JWT_EXPIRES_IN: 'soon',
        CORS_ORIGIN: '*',
        LOG_LEVEL: 'loud',
      });
      expect.unreachable('parseEnv accepted bad values');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of [
        'PORT',
        'ADMIN_INVITE_TOKEN',
        'DATABASE_URL',
        'JWT_EXPIRES_IN',
        'CORS_ORIGIN',
        'LOG_LEVEL',
      ]) {
        expect(problems).toContain(name);
      }
    }
  });

  describe('TRUST_PROXY', () => {
    it.each([
      ['false', false],
      ['0', false],
      ['1', 1],
      ['2', 2],
      ['loopback', ['loopback']],
      ['10.0.0.2, 192.168.1.0/24,uniquelocal', ['10.0.0.2', '192.168.1.0/24', 'uniquelocal']],
      ['::1', ['::1']],
    ])('reads %j', (value, expected) => {
      expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
    });

    it('refuses true, which would let any client choose its IP address', () => {
      expect(() => parseEnv({ TRUST_PROXY: 'true' })).toThrow(
        /TRUST_PROXY must not be true: .*X-Forwarded-For/,
      );
    });

    it.each(['yes', '10.0.0.300', 'loopback, evil.example', '11', '-1', '1.5'])(
      'refuses %j',
      (value) => {
        expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be/);
      },
    );
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required/);
    expect(() => parseEnv({ NODE_ENV: 'production', JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(
      parseEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).JWT_SECRET,
    ).toHaveLength(32);
  });
});
