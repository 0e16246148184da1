import jwt from 'jsonwebtoken';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../../src/auth/tokens.js';

/**
 * The token service remembers the tokens it verified (src/auth/tokens.ts): a session's next
 * requests skip the signature check, but never its expiry, and nothing unverified is accepted.
 */
describe('verified tokens remembered', () => {
  const secret = 'a-test-secret-that-is-long-enough-0123456789';
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('checks a token once, then answers the same claims without checking it again', () => {
    const tokens = createTokenService(secret, '1h');
    const token = tokens.sign({ sub: 'user-1', ver: 3 });
    const check = vi.spyOn(jwt, 'verify');
    const first = tokens.verify(token);
    expect(first).toMatchObject({ sub: 'user-1', ver: 3 });
    expect(tokens.verify(token)).toEqual(first);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('refuses a remembered token from its expiry on', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T10:00:00.000Z'));
    const tokens = createTokenService(secret, '60');
    const token = tokens.sign({ sub: 'user-1', ver: 0 });
    expect(tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-28T10:00:59.000Z'));
    expect(tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-28T10:01:00.000Z'));
    expect(tokens.verify(token)).toBeNull();
    // Forgotten once expired, and still refused when checked afresh.
    vi.setSystemTime(new Date('2026-11-28T10:00:30.000Z'));
    expect(tokens.verify(token)).not.toBeNull();
  });

  it('still refuses a tampered copy of a remembered token, and another secret refuses it', () => {
    const tokens = createTokenService(secret, '1h');
    const token = tokens.sign({ sub: 'user-1', ver: 0 });
    expect(tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
        sub: 'admin',
      }),
    ).toString('base64url');
    expect(tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(tokens.verify(`${token}x`)).toBeNull();
    expect(createTokenService(`${secret}-other`, '1h').verify(token)).toBeNull();
  });

  it('keeps at most its bound, forgetting the oldest first', () => {
    const tokens = createTokenService(secret, '1h', 2);
    const [a, b, c] = [1, 2, 3].map((n) => tokens.sign({ sub: `user-${n}`, ver: 0 }));
    const check = vi.spyOn(jwt, 'verify');
    for (const token of [a, b, c]) expect(tokens.verify(token!)).not.toBeNull();
    expect(check).toHaveBeenCalledTimes(3);
    expect(tokens.verify(c!)?.sub).toBe('user-3');
    expect(tokens.verify(b!)?.sub).toBe('user-2');
    expect(check).toHaveBeenCalledTimes(3);
    // `a` was the oldest: checked again.
    expect(tokens.verify(a!)?.sub).toBe('user-1');
    expect(check).toHaveBeenCalledTimes(4);
  });
});
