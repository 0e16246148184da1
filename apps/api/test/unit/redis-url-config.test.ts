import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../src/config.js';

describe('REDIS_URL', () => {
  it('is optional: unset (or empty) means each process counts its own rate limits', () => {
    expect(parseEnv({}).REDIS_URL).toBeUndefined();
    expect(parseEnv({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
  });

  it.each([
    'redis://127.0.0.1:6379',
    'redis://redis:6379/2',
    'rediss://user:secret@cache.example.com:6380',
  ])('accepts %s', (url) => {
    expect(parseEnv({ REDIS_URL: url }).REDIS_URL).toBe(url);
  });

  it.each([
    'http://127.0.0.1:6379',
    '127.0.0.1:6379',
    'redis://',
    'redis://host:port',
    'redis://a b',
  ])('refuses %s, naming the variable', (url) => {
    expect(() => parseEnv({ REDIS_URL: url })).toThrow(ConfigError);
    try {
      parseEnv({ REDIS_URL: url });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'REDIS_URL must be a redis:// or rediss:// URL',
      ]);
    }
  });
});
