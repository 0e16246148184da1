import type { LiveEvent, LiveEventType } from '@task-manager/shared';
import { hashKey, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, statusOf } from './api-client';
import { queryKeys } from './query-keys';

/**
 * Live updates (issue 17): one Server-Sent Events stream per signed-in tab. Events only name
 * what changed; the client refetches the queries that show it, a burst at a time.
 */

/**
 * The stream's event names, as in the shared live-event schema (live-updates.test.ts checks they
 * match). Written out here because the shared module builds zod schemas when loaded, and the
 * signed-in frame must not pull zod into every page's first load.
 */
export const LIVE_EVENT_TYPES = [
  'task.created',
  'task.updated',
  'task.deleted',
  'checklist.changed',
  'comment.added',
  'notification.created',
  'user.updated',
] as const satisfies readonly LiveEventType[];
const READY_EVENT = 'ready';
const RESET_EVENT = 'reset';

/** The first wait after a dropped stream; it doubles per failed attempt up to the maximum. */
export const FIRST_RECONNECT_DELAY_MS = 1_000;
export const MAX_RECONNECT_DELAY_MS = 30_000;
/** Events arriving within this window are refetched together. */
export const INVALIDATION_BATCH_MS = 150;

/** How long to wait before the `attempt`-th reconnection (1, 2, ...): 1 s, 2 s, 4 s, ... 30 s. */
export function reconnectDelay(attempt: number): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(MAX_RECONNECT_DELAY_MS, FIRST_RECONNECT_DELAY_MS * 2 ** Math.min(exponent, 16));
}

/** The part of the browser's EventSource used here, so tests can stand in a fake one. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What the stream delivers: a change, or `reset` (too much was missed: refetch everything). */
export type LiveMessage = { kind: 'event'; event: LiveEvent } | { kind: 'reset' };

export interface LiveConnectionOptions {
  /** A fresh single-use ticket (POST /api/events/ticket). */
  requestTicket: () => Promise<string>;
  openStream: (url: string) => EventSourceLike;
  onMessage: (message: LiveMessage) => void;
  /** A failure not worth retrying (e.g. an API without the stream): the app goes on without it. */
  isPermanentFailure?: (error: unknown) => boolean;
  timers?: Timers;
}

/**
 * Keeps one stream open: a ticket is single-use, so after an error or a close the stream is
 * closed and opened again with a new ticket and the last event id seen (the server replays what
 * was missed), waiting 1 s, 2 s, 4 s ... at most 30 s between failed attempts.
 */
export class LiveConnection {
  private source: EventSourceLike | null = null;
  private timer: unknown = null;
  private connecting = false;
  private stopped = true;
  private attempt = 0;
  /** The position of the last event seen, sent as `lastEventId` when reconnecting. */
  lastEventId: string | null = null;
  private readonly timers: Timers;

  constructor(private readonly options: LiveConnectionOptions) {
    this.timers = options.timers ?? browserTimers;
  }

  get isOpen(): boolean {
    return this.source !== null;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
  }

  stop() {
    this.stopped = true;
    this.cancelTimer();
    this.source?.close();
    this.source = null;
  }

  /** The tab is visible again or back online: reconnect now instead of waiting out the backoff. */
  resume() {
    if (this.stopped || this.source || this.connecting) return;
    this.cancelTimer();
    void this.connect();
  }

  private cancelTimer() {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }

  private scheduleRetry() {
    if (this.stopped) return;
    this.attempt += 1;
    this.cancelTimer();
    this.timer = this.timers.set(() => {
      this.timer = null;
      void this.connect();
    }, reconnectDelay(this.attempt));
  }

  private async connect() {
    if (this.stopped || this.source || this.connecting) return;
    this.connecting = true;
    let ticket: string;
    try {
      ticket = await this.options.requestTicket();
    } catch (error) {
      this.connecting = false;
      if (this.options.isPermanentFailure?.(error)) this.stop();
      else this.scheduleRetry();
      return;
    }
    this.connecting = false;
    if (this.stopped || this.source) return;
    const params = new URLSearchParams({ ticket });
    if (this.lastEventId !== null) params.set('lastEventId', this.lastEventId);
    const source = this.options.openStream(`/api/events?${params.toString()}`);
    this.source = source;
    source.onerror = () => {
      // Never let EventSource retry by itself: it would send the used ticket again.
      source.close();
      if (this.source !== source) return;
      this.source = null;
      this.scheduleRetry();
    };
    source.addEventListener(READY_EVENT, (message) => {
      this.attempt = 0;
      if (message.lastEventId) this.lastEventId = message.lastEventId;
      else if (this.lastEventId === null) this.lastEventId = readyPosition(message.data);
    });
    source.addEventListener(RESET_EVENT, (message) => {
      if (message.lastEventId) this.lastEventId = message.lastEventId;
      this.options.onMessage({ kind: 'reset' });
    });
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        if (message.lastEventId) this.lastEventId = message.lastEventId;
        const event = parseLiveEvent(type, message.data);
        if (event) this.options.onMessage({ kind: 'event', event });
      });
    }
  }
}

/** The `lastEventId` of a `ready` event's data, or null. */
function readyPosition(data: string): string | null {
  try {
    const value = (JSON.parse(data) as { lastEventId?: unknown }).lastEventId;
    return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
  } catch {
    return null;
  }
}

/**
 * An event's data, checked by hand (see LIVE_EVENT_TYPES for why not with zod); the SSE `event:`
 * field gives the type. Null when the data is not an object or a field has the wrong type.
 */
export function parseLiveEvent(type: LiveEventType, data: string): LiveEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { taskId = null, at = '', data: details = {} } = raw as Record<string, unknown>;
  if (taskId !== null && typeof taskId !== 'string') return null;
  if (typeof at !== 'string') return null;
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return null;
  return { type, taskId, at, data: details as Record<string, unknown> };
}

/** Every query a task change can move: lists, board, calendar, search, dashboards, counts. */
const TASK_COLLECTIONS: readonly QueryKey[] = [
  queryKeys.tasks.lists(),
  [...queryKeys.tasks.all, 'month'],
  [...queryKeys.tasks.all, 'search'],
  queryKeys.dashboard.all,
  queryKeys.users.all,
  queryKeys.activity,
];

/** The queries that show what one event changed. */
export function staleKeysFor(event: LiveEvent): QueryKey[] {
  const id = event.taskId;
  switch (event.type) {
    case 'task.created':
    case 'task.updated':
    case 'checklist.changed':
      return [
        ...TASK_COLLECTIONS,
        ...(id
          ? [queryKeys.tasks.detail(id), queryKeys.tasks.activity(id), queryKeys.tasks.people(id)]
          : []),
      ];
    case 'task.deleted':
      // The task itself refetches as a 404, so a page that has it open says at once it is gone.
      return [...TASK_COLLECTIONS, ...(id ? [queryKeys.tasks.detail(id)] : [])];
    case 'comment.added':
      return id
        ? [queryKeys.tasks.comments(id), queryKeys.tasks.activity(id), queryKeys.activity]
        : [queryKeys.activity];
    case 'notification.created':
      return [queryKeys.notifications.all];
    case 'user.updated':
      // A name, photo or role: the side menu's (the session's profile), the team page, and
      // every task, card and history that names the person. Rare: everything is refetched.
      return [
        queryKeys.profile,
        queryKeys.users.all,
        queryKeys.tasks.all,
        queryKeys.dashboard.all,
        queryKeys.activity,
      ];
  }
}

/** Whether `prefix` is the start of `key` (so invalidating `prefix` covers `key`). */
function startsWith(key: QueryKey, prefix: QueryKey): boolean {
  return (
    prefix.length <= key.length &&
    prefix.every((part, index) => hashKey([part]) === hashKey([key[index]]))
  );
}

/**
 * Collects the keys of a burst of events and hands them over once, `delayMs` after the first:
 * duplicates and keys covered by a shorter one go, and `all` (a reset) replaces the lot.
 */
export class InvalidationBatcher {
  private keys: QueryKey[] = [];
  private everything = false;
  private timer: unknown = null;

  constructor(
    private readonly flush: (keys: QueryKey[] | 'all') => void,
    private readonly delayMs = INVALIDATION_BATCH_MS,
    private readonly timers: Timers = browserTimers,
  ) {}

  add(keys: readonly QueryKey[] | 'all') {
    if (keys === 'all') this.everything = true;
    else if (!this.everything) {
      for (const key of keys) {
        if (this.keys.some((kept) => startsWith(key, kept))) continue;
        this.keys = [...this.keys.filter((kept) => !startsWith(kept, key)), key];
      }
    }
    if (this.timer === null) this.timer = this.timers.set(() => this.run(), this.delayMs);
  }

  dispose() {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.keys = [];
    this.everything = false;
  }

  private run() {
    this.timer = null;
    const keys = this.everything ? 'all' : this.keys;
    this.keys = [];
    this.everything = false;
    if (keys === 'all' || keys.length > 0) this.flush(keys);
  }
}

/**
 * Refetches what is on screen and marks the rest stale; data stays on screen while it reloads
 * (invalidation never empties a query), so nothing flickers.
 */
function invalidate(queryClient: QueryClient, keys: QueryKey[] | 'all') {
  if (keys === 'all') void queryClient.invalidateQueries();
  else for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

async function requestTicket(): Promise<string> {
  const { data } = await api.post<{ ticket: string; expiresAt: string }>('/api/events/ticket');
  return data.ticket;
}

/** An API without the stream (404, 405, 501) or a session that has ended (401, 403). */
function isPermanentFailure(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && [401, 403, 404, 405, 501].includes(status);
}

/** While someone is signed in (`userId`), keeps the stream open and refetches what it names. */
export function useLiveUpdates(userId: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    const batcher = new InvalidationBatcher((keys) => invalidate(queryClient, keys));
    const connection = new LiveConnection({
      requestTicket,
      openStream: (url) => new EventSource(url),
      onMessage: (message) =>
        batcher.add(message.kind === 'reset' ? 'all' : staleKeysFor(message.event)),
      isPermanentFailure,
    });
    connection.start();
    const resume = () => {
      if (document.visibilityState === 'visible') connection.resume();
    };
    document.addEventListener('visibilitychange', resume);
    window.addEventListener('online', resume);
    return () => {
      document.removeEventListener('visibilitychange', resume);
      window.removeEventListener('online', resume);
      connection.stop();
      batcher.dispose();
    };
  }, [queryClient, userId]);
}
