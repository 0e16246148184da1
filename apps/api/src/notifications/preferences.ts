import type { Kysely } from 'kysely';
import {
  DEFAULT_EMAIL_MODES,
  EMAIL_MODES,
  NOTIFICATION_TYPES,
  type EmailMode,
  type NotificationType,
} from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { loadPreferenceRows } from './repository.js';

export type EmailModes = Record<NotificationType, EmailMode>;

/** Each person's e-mail mode for every kind: the defaults, with what they chose on top. */
export async function emailModesOf(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, EmailModes>> {
  const modes = new Map<string, EmailModes>(userIds.map((id) => [id, { ...DEFAULT_EMAIL_MODES }]));
  for (const row of await loadPreferenceRows(db, userIds)) {
    const own = modes.get(row.user_id);
    const kind = row.kind as NotificationType;
    const mode = row.mode as EmailMode;
    if (own && NOTIFICATION_TYPES.includes(kind) && EMAIL_MODES.includes(mode)) own[kind] = mode;
  }
  return modes;
}
