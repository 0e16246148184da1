import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ensurePrivateDir } from '../data-files.js';
import type { Database } from '../db/tables.js';
import type { SignupMode } from '@task-manager/shared';
import { recordAudit } from '../audit/service.js';
import { insertSettingIfAbsent, readSetting, writeSetting } from './repository.js';

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

const ADMIN_INVITE_TOKEN_KEY = 'admin_invite_token';

function newAdminInviteToken(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The sign-up settings an admin sees and changes. The admin invite code is read from the
 * database on each use, so a rotation reaches every API process at once; until an admin rotates
 * it, the code the server started with (ADMIN_INVITE_TOKEN, or the generated one) applies.
 */
export class SettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly startupAdminInviteToken: string,
    readonly signupMode: SignupMode,
  ) {}

  async adminInviteToken(): Promise<string> {
    return (await readSetting(this.db, ADMIN_INVITE_TOKEN_KEY)) ?? this.startupAdminInviteToken;
  }

  async get(): Promise<{ signupMode: SignupMode; adminInviteToken: string }> {
    return { signupMode: this.signupMode, adminInviteToken: await this.adminInviteToken() };
  }

  /** A new 6-digit code: the old one stops working at once. */
  async rotateAdminInviteToken(actorId: string): Promise<{ adminInviteToken: string }> {
    const current = await this.adminInviteToken();
    let token = newAdminInviteToken();
    while (token === current) token = newAdminInviteToken();
    await this.db.transaction().execute(async (trx) => {
      await writeSetting(trx, ADMIN_INVITE_TOKEN_KEY, token);
      // The code itself is a secret: the log says only that it changed.
      await recordAudit(trx, {
        actorId,
        action: 'settings.admin-invite-token',
        target: { type: 'settings', id: null, label: 'admin invite token' },
      });
    });
    return { adminInviteToken: token };
  }
}
