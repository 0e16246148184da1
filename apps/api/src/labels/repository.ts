import type { Kysely, Selectable } from 'kysely';
import type { Label } from '@task-manager/shared';
import type { Database, LabelsTable } from '../db/tables.js';

export type LabelRow = Selectable<LabelsTable>;

/** The key a name is unique by: the same name whatever its case (and Unicode composition). */
export function nameKeyOf(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export const toLabel = (row: Pick<LabelRow, 'id' | 'name' | 'color'>): Label => ({
  _id: row.id,
  name: row.name,
  color: row.color,
});

export async function listLabelRows(db: Kysely<Database>): Promise<LabelRow[]> {
  return db.selectFrom('labels').selectAll().orderBy('name_key').orderBy('id').execute();
}

export async function findLabelRow(db: Kysely<Database>, id: string) {
  return db.selectFrom('labels').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findLabelByKey(db: Kysely<Database>, nameKey: string) {
  return db.selectFrom('labels').selectAll().where('name_key', '=', nameKey).executeTakeFirst();
}

export async function insertLabelRow(db: Kysely<Database>, row: LabelRow): Promise<void> {
  await db.insertInto('labels').values(row).execute();
}

export async function updateLabelRow(
  db: Kysely<Database>,
  id: string,
  patch: Partial<Pick<LabelRow, 'name' | 'name_key' | 'color'>>,
): Promise<void> {
  await db.updateTable('labels').set(patch).where('id', '=', id).execute();
}

/** Deletes the label; its links to tasks go with it (ON DELETE CASCADE). */
export async function deleteLabelRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('labels').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
