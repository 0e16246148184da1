import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  NOTIFICATION_TYPES,
  type EmailMode,
  type Notification,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationType,
  type UpdateNotificationPreferencesInput,
} from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import type { RequestUser } from '../http/request-user.js';
import { emailModesOf } from './preferences.js';
import {
  countUnread,
  listNotifications,
  markRead,
  savePreferences,
  type NotificationView,
} from './repository.js';
import { readUnsubscribeToken } from './unsubscribe-token.js';

const cursorShape = z.tuple([z.string().min(1).max(64), z.uuid()]);

function parseData(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toApi(row: NotificationView): Notification {
  return {
    _id: row.id,
    type: row.type as NotificationType,
    task:
      row.task_id && row.visible_task_title !== null
        ? { _id: row.task_id, title: row.visible_task_title }
        : null,
    actor:
      row.actor_id && row.actor_name !== null
        ? { _id: row.actor_id, name: row.actor_name, profileImageUrl: row.actor_image }
        : null,
    data: parseData(row.data),
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}

export class NotificationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { emailEnabled: boolean; secret: string },
  ) {}

  /** The caller's notifications, newest first (only unread ones with `unread`). */
  async list(
    user: RequestUser,
    query: { limit: number; cursor?: string; unread?: 'true' | 'false' },
  ): Promise<NotificationPage> {
    const before = query.cursor ? decodeCursor(query.cursor, cursorShape) : undefined;
    const rows = await listNotifications(this.db, user.id, {
      limit: query.limit + 1,
      before,
      unreadOnly: query.unread === 'true',
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(toApi),
      nextCursor:
        rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null,
    };
  }

  async unreadCount(user: RequestUser): Promise<{ count: number }> {
    return { count: await countUnread(this.db, user.id) };
  }

  /** Marks the caller's own notifications read (ids of anyone else's change nothing). */
  async markRead(
    user: RequestUser,
    input: { ids: string[] } | { all: true },
  ): Promise<{ count: number }> {
    const ids = 'ids' in input ? input.ids : 'all';
    await markRead(this.db, user.id, ids, new Date().toISOString());
    return this.unreadCount(user);
  }

  async preferences(user: RequestUser): Promise<NotificationPreferences> {
    const modes = await emailModesOf(this.db, [user.id]);
    return { email: modes.get(user.id)!, emailEnabled: this.options.emailEnabled };
  }

  async updatePreferences(
    user: RequestUser,
    input: UpdateNotificationPreferencesInput,
  ): Promise<NotificationPreferences> {
    const modes = Object.entries(input.email).filter(
      (entry): entry is [NotificationType, EmailMode] => entry[1] !== undefined,
    );
    await savePreferences(this.db, user.id, modes);
    return this.preferences(user);
  }

  /** Whether an unsubscribe link is genuine and names someone who still exists. */
  async unsubscribeTarget(token: string) {
    const target = readUnsubscribeToken(this.options.secret, token);
    if (!target) return undefined;
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'language'])
      .where('id', '=', target.userId)
      .executeTakeFirst();
    return user ? { ...target, language: user.language } : undefined;
  }

  /**
   * One-click unsubscribe: that kind is set to `never`; a digest's link sets every kind that
   * went to the digest (the ones mailed at once stay as they are).
   */
  async unsubscribe(token: string) {
    const target = await this.unsubscribeTarget(token);
    if (!target) return undefined;
    const current = (await emailModesOf(this.db, [target.userId])).get(target.userId)!;
    const kinds =
      target.scope === 'digest'
        ? NOTIFICATION_TYPES.filter((kind) => current[kind] === 'digest')
        : [target.scope];
    await savePreferences(
      this.db,
      target.userId,
      kinds.map((kind) => [kind, 'never'] as const),
    );
    return target;
  }
}
