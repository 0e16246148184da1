import type { Generated } from 'kysely';
import type { Language, Role, TaskPriority, TaskStatus } from '@task-manager/shared';

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
  /** 1 active, 0 deactivated: cannot sign in, tokens refused (migration 2026-11-26-301). */
  active: Generated<number>;
  /** The language the person chose in the app, for what the server writes to them (migration 2026-11-28-610). */
  language: Language | null;
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
  /** Who added it (migration 2026-11-26-101); null: unknown, or that user was deleted. */
  created_by: string | null;
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

/** Invitation links (issue 18): single use, expiring, revocable; only the token's SHA-256. */
export interface InvitesTable {
  id: string;
  token_hash: string;
  role: Role;
  email: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
  revoked_at: string | null;
}

/** Single-use password-reset links; only the token's SHA-256. */
export interface PasswordResetsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Mail waiting to be sent, written in the transaction of what causes it. */
export interface MailOutboxTable {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** A sender holds the row until then (its claim); null: free. */
  locked_until: string | null;
  sent_at: string | null;
  last_error: string | null;
  /** Extra headers (List-Unsubscribe), JSON text (migration 2026-11-27-201); null: none. */
  headers: string | null;
}

/** Every admin change to people, invitations, settings and resets. */
export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  /** JSON text. */
  data: string;
  at: string;
}

/** A single-use ticket for opening an event stream (migration 2026-11-27-111). */
export interface EventTicketsTable {
  /** SHA-256 (hex) of the ticket. */
  ticket_hash: string;
  user_id: string;
  token_version: number;
  expires_at: string;
}

/** A label tasks can carry (migration 2026-11-26-201); `name_key` is the name folded for uniqueness. */
export interface LabelsTable {
  id: string;
  name: string;
  name_key: string;
  color: string;
  created_at: string;
}

export interface TaskLabelsTable {
  task_id: string;
  label_id: string;
}

/**
 * The full-text index of tasks (migration 2026-11-26-202), written by triggers only. SQLite: an
 * FTS5 table (`rowid` from task_search_keys, `document` the indexed text, `facets` the task's
 * priority as a token, migration 2026-11-27-603); PostgreSQL: `task_id` and a tsvector
 * `document`. Queried through apps/api/src/tasks/search.ts.
 */
export interface TaskSearchTable {
  rowid: number;
  task_id: string;
  document: string;
  facets: string | null;
}

/**
 * SQLite only (migration 2026-11-29-613): the tasks whose checklist is being written whole in the
 * current transaction. Their items' triggers leave the full-text row alone until the id is
 * deleted from here, which writes it once (tasks/repository.ts, searchRowWrittenOnce). Always
 * empty between transactions.
 */
export interface TaskSearchDeferredTable {
  task_id: string;
}

export interface TaskSearchKeysTable {
  search_id: number;
  task_id: string;
  /** The task's status and creation time, kept by triggers (migration 2026-11-27-401). */
  status: TaskStatus | null;
  created_at: string | null;
  /** Its priority and due date, kept by triggers as well (migration 2026-11-27-402). */
  priority: TaskPriority | null;
  due_date: string | null;
  /** Its title's sort key, lower(title), kept by triggers too (migration 2026-11-27-605). */
  title_key: string | null;
}

/**
 * A task's JSON as the API sends it, stored when first built and forgotten by triggers on any
 * write to what it shows (migrations 2026-11-27-501 and 2026-11-29-614 for SQLite, where they set
 * it to NULL; 2026-11-29-612 for PostgreSQL, where they delete it at commit). Read and written by
 * apps/api/src/tasks/documents.ts only.
 */
export interface TaskDocumentsTable {
  task_id: string;
  /**
   * `task:<digest>`: the whole task; `card:<digest>`: a card's JSON object after its
   * description; the digest is of the SQL that wrote it (documents.ts).
   */
  shape: string;
  /** Null once forgotten (SQLite): no text. */
  document: string | null;
}

/** Every change to a task (issue 16), written in the transaction of the change. */
export interface TaskActivityTable {
  id: string;
  task_id: string;
  actor_id: string | null;
  type: string;
  /** JSON text. */
  data: string;
  at: string;
  /** The order of the entries of one change (they share `at`). */
  seq: number;
}

export interface CommentsTable {
  id: string;
  task_id: string;
  author_id: string | null;
  body: string;
  /** JSON array of user ids. */
  mentions: string;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
}

/** A file attached to a task; its bytes are in task_file_chunks (docs/decisions/006). */
export interface TaskFilesTable {
  id: string;
  task_id: string;
  name: string;
  content_type: string;
  size: number;
  uploaded_by: string | null;
  created_at: string;
  /** 0 while the upload is being written, 1 once whole. */
  complete: number;
}

/** The live-update log (src/events): one row per event, in commit order. */
export interface EventsTable {
  /** bigserial on PostgreSQL (read back as a string), integer on SQLite. */
  id: Generated<number | string>;
  type: string;
  task_id: string | null;
  /** JSON array of the user ids that may receive it. */
  audience: string;
  /** 1 when every admin may receive it too. */
  to_admins: number;
  /** JSON text. */
  data: string;
  at: string;
}

/** Something a person is told about (issue 17, migration 2026-11-27-201). */
export interface NotificationsTable {
  id: string;
  user_id: string;
  type: string;
  /** No foreign key: the notification outlives its task (`data.taskTitle` keeps the title). */
  task_id: string | null;
  actor_id: string | null;
  /** JSON text. */
  data: string;
  created_at: string;
  read_at: string | null;
  /** When it was mailed, or needed no mail; null: waiting for the daily digest. */
  mailed_at: string | null;
  /** Unique when set: a reminder is written once per task, person and due date. */
  dedupe_key: string | null;
}

/** A person's e-mail mode for one kind of notification, where it differs from the default. */
export interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  mode: string;
}

/** A person's secret iCalendar address and whose tasks it holds. */
export interface CalendarFeedsTable {
  user_id: string;
  secret: string;
  scope: string;
  created_at: string;
}

/** Who runs a scheduled job until when (src/scheduler). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface TaskFileChunksTable {
  file_id: string;
  seq: number;
  data: Buffer;
}

/**
 * One row (id 1): a number that moves, by triggers, on every write to what task answers show
 * (migration 2026-11-27-301); the ETags of task lists, tasks and dashboards carry it.
 */
export interface DataVersionTable {
  id: number;
  version: number;
}

/**
 * SQLite only (migration 2026-11-28-609): raised by every write that changes what a search's
 * words match or a match's title; the task list's kept matches follow it (tasks/search-matches.ts).
 */
export interface SearchTextVersionTable {
  id: number;
  version: number;
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
  labels: LabelsTable;
  task_labels: TaskLabelsTable;
  task_search: TaskSearchTable;
  task_search_keys: TaskSearchKeysTable;
  task_search_deferred: TaskSearchDeferredTable;
  task_documents: TaskDocumentsTable;
  invites: InvitesTable;
  password_resets: PasswordResetsTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  task_activity: TaskActivityTable;
  comments: CommentsTable;
  task_files: TaskFilesTable;
  task_file_chunks: TaskFileChunksTable;
  events: EventsTable;
  event_tickets: EventTicketsTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  calendar_feeds: CalendarFeedsTable;
  job_leases: JobLeasesTable;
  data_version: DataVersionTable;
  search_text_version: SearchTextVersionTable;
}
