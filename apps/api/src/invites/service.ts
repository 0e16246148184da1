import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  apiMessages,
  type CreatedInvite,
  type createInviteSchema,
  type Invite,
  type InviteStatus,
  type Role,
} from '@task-manager/shared';
import { recordAudit } from '../audit/service.js';
import type { Database } from '../db/tables.js';
import { HttpError, NotFound } from '../errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import {
  findInviteById,
  findInviteByTokenHash,
  insertInvite,
  listInviteRows,
  revokeInvite,
  useInvite,
  type InviteRow,
} from './repository.js';
import { hashLinkToken, newLinkToken } from './tokens.js';

const DAY_MS = 86_400_000;
const inviteCursorShape = z.tuple([z.string().min(1).max(64), z.uuid()]);

function statusOf(row: InviteRow, now: string): InviteStatus {
  if (row.used_at) return 'used';
  if (row.revoked_at) return 'revoked';
  if (row.expires_at <= now) return 'expired';
  return 'pending';
}

function toApiInvite(row: InviteRow, now = new Date().toISOString()): Invite {
  return {
    _id: row.id,
    role: row.role,
    email: row.email,
    status: statusOf(row, now),
    createdBy:
      row.created_by && row.creator_name !== null
        ? { _id: row.created_by, name: row.creator_name }
        : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    revokedAt: row.revoked_at,
  };
}

export const invalidInvite = () =>
  new HttpError(
    400,
    apiMessages.invalidInvite,
    [{ path: 'invite', message: apiMessages.invalidInvite }],
    { code: 'invalid_invite' },
  );

/** Invitation links: single use, expiring, revocable, only their SHA-256 kept. */
export class InviteService {
  constructor(private readonly db: Kysely<Database>) {}

  async create(
    actorId: string,
    input: z.output<typeof createInviteSchema>,
  ): Promise<CreatedInvite> {
    const { token, hash } = newLinkToken();
    const now = new Date();
    const row = {
      id: randomUUID(),
      token_hash: hash,
      role: input.role,
      email: input.email ?? null,
      created_by: actorId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString(),
      used_at: null,
      used_by: null,
      revoked_at: null,
    };
    const stored = await this.db.transaction().execute(async (trx) => {
      await insertInvite(trx, row);
      await recordAudit(trx, {
        actorId,
        action: 'invite.create',
        target: { type: 'invite', id: row.id, label: row.email },
        data: { role: row.role, email: row.email, expiresAt: row.expires_at },
      });
      return findInviteById(trx, row.id);
    });
    if (!stored) throw NotFound(apiMessages.inviteNotFound);
    return { ...toApiInvite(stored), token, url: `/signup?invite=${token}` };
  }

  async list(query: {
    limit: number;
    cursor?: string;
  }): Promise<{ invites: Invite[]; nextCursor: string | null }> {
    const before = query.cursor ? decodeCursor(query.cursor, inviteCursorShape) : undefined;
    const rows = await listInviteRows(this.db, { limit: query.limit + 1, before });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null;
    const now = new Date().toISOString();
    return { invites: page.map((row) => toApiInvite(row, now)), nextCursor };
  }

  /** Revokes an invitation; one already used or revoked stays as it is (idempotent). */
  async revoke(actorId: string, id: string): Promise<Invite> {
    return this.db.transaction().execute(async (trx) => {
      const row = await findInviteById(trx, id);
      if (!row) throw NotFound(apiMessages.inviteNotFound);
      const now = new Date().toISOString();
      if (await revokeInvite(trx, id, now)) {
        await recordAudit(trx, {
          actorId,
          action: 'invite.revoke',
          target: { type: 'invite', id, label: row.email },
          data: { role: row.role },
        });
        return toApiInvite({ ...row, revoked_at: now }, now);
      }
      return toApiInvite(row, now);
    });
  }

  /** What a usable invitation grants, for the sign-up page; 404 for any other token. */
  async lookup(token: string): Promise<{ role: Role; email: string | null }> {
    const row = await findInviteByTokenHash(this.db, hashLinkToken(token));
    if (!row || statusOf(row, new Date().toISOString()) !== 'pending') {
      throw NotFound(apiMessages.invalidInvite);
    }
    return { role: row.role, email: row.email };
  }

  /**
   * Checks an invitation for a sign-up with `email`: the role it grants, and `use`, which uses
   * it up inside the sign-up's transaction (so a link works once, even for two racing sign-ups).
   */
  async prepare(
    token: string,
    email: string,
  ): Promise<{ role: Role; use: (trx: Kysely<Database>, userId: string) => Promise<void> }> {
    const row = await findInviteByTokenHash(this.db, hashLinkToken(token));
    if (!row || statusOf(row, new Date().toISOString()) !== 'pending') throw invalidInvite();
    if (row.email !== null && row.email !== email) {
      throw new HttpError(
        400,
        apiMessages.inviteEmailMismatch,
        [{ path: 'email', message: apiMessages.inviteEmailMismatch }],
        { code: 'invite_email_mismatch' },
      );
    }
    return {
      role: row.role,
      use: async (trx, userId) => {
        if (!(await useInvite(trx, row.id, userId, new Date().toISOString()))) {
          throw invalidInvite();
        }
      },
    };
  }
}
