import { createHash, randomBytes } from 'node:crypto';

/** A link token: 32 random bytes, base64url (43 characters). Only its digest is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

/** SHA-256, hex: a token has 256 bits of entropy, so a fast hash is enough (no salt needed). */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
