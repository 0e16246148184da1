import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AuditEntry } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { actorName, insertAuditRow, listAuditRows, type AuditRow } from './repository.js';

/** What an admin did, to what: one line of the audit log. */
export interface AuditChange {
  actorId: string;
  action: string;
  target: { type: string; id: string | null; label?: string | null };
  data?: Record<string, unknown>;
}

/**
 * Records an admin change. Called with the transaction of the change itself, so the log holds
 * exactly what was committed: a rolled-back change leaves no entry, and no change goes unlogged.
 */
export async function recordAudit(trx: Kysely<Database>, change: AuditChange): Promise<void> {
  await insertAuditRow(trx, {
    id: randomUUID(),
    actor_id: change.actorId,
    actor_name: await actorName(trx, change.actorId),
    action: change.action,
    target_type: change.target.type,
    target_id: change.target.id,
    target_label: change.target.label ?? null,
    data: JSON.stringify(change.data ?? {}),
    // Entries of one transaction keep their order: time, then id.
    at: new Date().toISOString(),
  });
}

function toApiEntry(row: AuditRow): AuditEntry {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    data = {};
  }
  return {
    _id: row.id,
    actor: { _id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { type: row.target_type, _id: row.target_id, label: row.target_label },
    data,
    at: row.at,
  };
}

const auditCursorShape = z.tuple([z.string().min(1).max(64), z.uuid()]);

export class AuditService {
  constructor(private readonly db: Kysely<Database>) {}

  /** A page of the log, newest first, and the cursor of the next page. */
  async list(query: {
    limit: number;
    cursor?: string;
  }): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const before = query.cursor ? decodeCursor(query.cursor, auditCursorShape) : undefined;
    const rows = await listAuditRows(this.db, { limit: query.limit + 1, before });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const nextCursor = rows.length > query.limit && last ? encodeCursor([last.at, last.id]) : null;
    return { entries: page.map(toApiEntry), nextCursor };
  }
}
