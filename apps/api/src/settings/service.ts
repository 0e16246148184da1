import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ensurePrivateDir } from '../data-files.js';
import type { Database } from '../db/tables.js';
import { insertSettingIfAbsent, readSetting } from './repository.js';

export function jwtSecretFile(dataDir: string): string {
  return path.join(dataDir, 'jwt-secret');
}

/**
 * JWT_SECRET outside production: generated once and kept in DATA_DIR (mode 0600), so tokens
 * survive restarts without anyone having to invent a secret.
 */
export function resolveJwtSecret(given: string | undefined, dataDir: string): string {
  if (given) return given;
  const file = jwtSecretFile(dataDir);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  ensurePrivateDir(dataDir);
  const secret = randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

/**
 * ADMIN_INVITE_TOKEN when set; otherwise one generated at first start and stored in the
 * database, so every API process on that database agrees on it.
 */
export async function resolveAdminInviteToken(
  db: Kysely<Database>,
  given: string | undefined,
): Promise<{ token: string; generated: boolean }> {
  if (given) return { token: given, generated: false };
  const candidate = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // Insert-if-absent, then read back: two processes starting at once end up with the same code.
  await insertSettingIfAbsent(db, 'admin_invite_token', candidate);
  const token = await readSetting(db, 'admin_invite_token');
  if (token === undefined) throw new Error('the admin invite token was not stored');
  return { token, generated: true };
}
