import type { Response } from 'supertest';
import { expect } from 'vitest';

/** The user fields of a sign-up or sign-in answer, without its token. */
export function userOf(session: { token: string }): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...session };
  delete copy.token;
  return copy;
}

/** The same user as anyone else sees them (GET /api/users...): without the person's own language. */
export function publicUserOf(session: { token: string }): Record<string, unknown> {
  const copy = userOf(session);
  delete copy.language;
  return copy;
}

/**
 * No key that could carry a password or its hash, at any depth, and no bcrypt hash as a value.
 * `noTokens` also forbids token keys, for answers that are not a sign-in.
 */
export function expectNoSecrets(body: unknown, { noTokens = false } = {}) {
  const forbiddenKey = noTokens ? /password|hash|token/i : /password|hash/i;
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        expect(key).not.toMatch(forbiddenKey);
        walk(inner);
      }
    }
  };
  walk(body);
  expect(JSON.stringify(body)).not.toMatch(/\$2[aby]\$/);
}

/** A supertest parser that collects any response body as raw bytes, whatever its type. */
export function binary(res: Response, callback: (error: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}
