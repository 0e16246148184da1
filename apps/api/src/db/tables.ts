import type { Generated } from 'kysely';
import type { Role, TaskPriority, TaskStatus } from '@task-manager/shared';

/**
 * Row types of every table. Timestamps are ISO-8601 UTC strings on both engines (see
 * docs/decisions/002-timestamps-as-iso-text.md); booleans are 0/1 integers because SQLite has no
 * boolean type and better-sqlite3 cannot bind JavaScript booleans.
 */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  role: Role;
  profile_image_url: string | null;
  /** Raised to end every token issued before (password or role change). */
  token_version: number;
  created_at: string;
  updated_at: string;
}

export interface TasksTable {
  id: string;
  title: string;
  description: string;
  priority: TaskPriority;
  status: TaskStatus;
  progress: number;
  completed_todo_count: number;
  due_date: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaskAssigneesTable {
  task_id: string;
  user_id: string;
  position: number;
  /**
   * The task's created_at, copied by triggers (migration 2026-11-24-003) so that a member's
   * assignments are in list order in the (user_id, task_created_at, task_id) index.
   */
  task_created_at: Generated<string>;
}

export interface TodoItemsTable {
  id: string;
  task_id: string;
  position: number;
  text: string;
  completed: number;
}

export interface AttachmentsTable {
  id: string;
  task_id: string;
  position: number;
  url: string;
}

export interface ImagesTable {
  id: string;
  content_type: string;
  data: Buffer;
  byte_size: number;
  width: number;
  height: number;
  created_at: string;
  /**
   * The user whose profile photo this is (migration 2026-11-25-003); null: an upload no user
   * uses yet, deleted by the sweep after its grace period. Deleting the user deletes it.
   */
  owner_id: string | null;
}

export interface AppSettingsTable {
  key: string;
  value: string;
}

/** Tokens ended by logout, kept until they would have expired anyway. */
export interface RevokedTokensTable {
  /** The token's `jti` claim. */
  jti: string;
  /** The token's own expiry (ISO-8601): after it the row can go. */
  expires_at: string;
}

/**
 * How many tasks have each (status, priority): kept exact by triggers on `tasks` (migration
 * 2026-11-23-003), so the admin's counts read at most nine rows whatever the number of tasks.
 */
export interface TaskCountsTable {
  status: TaskStatus;
  priority: TaskPriority;
  count: number;
}

/**
 * How many tasks of each status fall due on each UTC day ('YYYY-MM-DD'): kept exact by triggers on
 * `tasks` (migration 2026-11-24-002), so the overdue count adds up days instead of tasks.
 */
export interface TaskDueDaysTable {
  status: TaskStatus;
  due_day: string;
  count: number;
}

export interface Database {
  users: UsersTable;
  tasks: TasksTable;
  task_assignees: TaskAssigneesTable;
  todo_items: TodoItemsTable;
  attachments: AttachmentsTable;
  images: ImagesTable;
  app_settings: AppSettingsTable;
  revoked_tokens: RevokedTokensTable;
  task_counts: TaskCountsTable;
  task_due_days: TaskDueDaysTable;
}
