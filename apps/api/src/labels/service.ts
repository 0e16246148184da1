import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  apiMessages,
  type CreateLabelData,
  type Label,
  type UpdateLabelData,
} from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { Conflict, NotFound } from '../errors.js';
import {
  deleteLabelRow,
  findLabelByKey,
  findLabelRow,
  insertLabelRow,
  listLabelRows,
  nameKeyOf,
  toLabel,
  updateLabelRow,
} from './repository.js';

/**
 * Labels: anyone signed in reads them, admins write them (the endpoints' `access`). Which tasks
 * carry which label is the task repository's (like assignees): tasks/repository.ts.
 */
export class LabelService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Label[]> {
    return (await listLabelRows(this.db)).map(toLabel);
  }

  async create(data: CreateLabelData): Promise<Label> {
    return this.db.transaction().execute(async (trx) => {
      const nameKey = nameKeyOf(data.name);
      if (await findLabelByKey(trx, nameKey)) throw Conflict(apiMessages.labelExists);
      const row = {
        id: randomUUID(),
        name: data.name,
        name_key: nameKey,
        color: data.color,
        created_at: new Date().toISOString(),
      };
      await insertLabelRow(trx, row);
      return toLabel(row);
    });
  }

  async update(id: string, data: UpdateLabelData): Promise<Label> {
    return this.db.transaction().execute(async (trx) => {
      const row = await findLabelRow(trx, id);
      if (!row) throw NotFound(apiMessages.labelNotFound);
      const patch: { name?: string; name_key?: string; color?: string } = {};
      if (data.name !== undefined) {
        const nameKey = nameKeyOf(data.name);
        const holder = await findLabelByKey(trx, nameKey);
        if (holder && holder.id !== id) throw Conflict(apiMessages.labelExists);
        Object.assign(patch, { name: data.name, name_key: nameKey });
      }
      if (data.color !== undefined) patch.color = data.color;
      await updateLabelRow(trx, id, patch);
      return toLabel({ ...row, ...patch });
    });
  }

  /** Deleting a label takes it off every task that carried it. */
  async delete(id: string): Promise<void> {
    if (!(await deleteLabelRow(this.db, id))) throw NotFound(apiMessages.labelNotFound);
  }
}
