import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../db/tables.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditRow(db: Kysely<Database>, row: AuditRow): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** The name of the acting user, copied into the entry so that it outlives their account. */
export async function actorName(db: Kysely<Database>, actorId: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('name')
    .where('id', '=', actorId)
    .executeTakeFirst();
  return row?.name ?? '';
}

/** A page of entries, newest first, those before `before` (keyset on (at, id)). */
export function listAuditRows(
  db: Kysely<Database>,
  page: { limit: number; before?: readonly [string, string] },
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  const { before } = page;
  if (before) {
    query = query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(before[0], before[1])));
  }
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}
