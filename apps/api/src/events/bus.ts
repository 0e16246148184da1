import type { Response } from 'express';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Logger } from 'pino';
import { LIVE_RESET_EVENT, type LiveEvent, type Role } from '@task-manager/shared';
import type { Database, EventsTable } from '../db/tables.js';

export interface EventBusOptions {
  /** A comment line on every stream this often, so proxies keep idle streams open (25 s). */
  heartbeatMs?: number;
  /** Read the log this often while streams are open, whatever woke it or not (1 s). */
  pollMs?: number;
  /** Rows read at once (500). */
  batchSize?: number;
  /** A client further behind than this many events refetches instead of a replay (1,000). */
  maxReplay?: number;
  /** Events older than this are deleted (24 h)… */
  keepMs?: number;
  /** …at most this often, by whichever process notices first (10 min). */
  pruneEveryMs?: number;
}

/** How long a browser waits before reconnecting a dropped stream (the SSE `retry:` field). */
export const STREAM_RETRY_MS = 3000;
/** A client that reads slower than this many bytes behind is dropped; it resumes when it can. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

type EventRow = Selectable<EventsTable>;

interface Stream {
  userId: string;
  role: Role;
  /** The user's token version when the stream opened (users.token_version). */
  tokenVersion: number;
  res: Response;
}

/** Who opens a stream, as loaded when it opens. */
export interface StreamUser {
  id: string;
  role: Role;
  tokenVersion: number;
}

const frame = (row: EventRow): string => {
  const event: LiveEvent = {
    type: row.type as LiveEvent['type'],
    taskId: row.task_id,
    at: row.at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
  return `id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(event)}\n\n`;
};

/** An event's audience, parsed once per event however many streams look at it. */
const audienceOf = (row: EventRow) => new Set(JSON.parse(row.audience) as string[]);

/**
 * The live-update fan-out of one process: it reads new rows of the `events` log (written in the
 * transactions of the changes, src/events/log.ts) and writes each to the open streams whose user
 * may see it. Whatever wakes it (a write finishing here, PostgreSQL's NOTIFY, the cluster
 * primary's relay, a 1 s safety poll), it reads `id > head` in order, so nothing is skipped or
 * sent twice. Work runs one piece at a time on a chain: a stream is added between two reads, so
 * its replay ends exactly where live delivery begins.
 */
export class EventBus {
  private readonly streams = new Set<Stream>();
  /** The last log id every open stream has been given (or skipped, not being its audience). */
  private head = 0;
  /** False while no stream is open: nothing reads the log then; the next stream re-reads it. */
  private headKnown = false;
  private chain: Promise<unknown> = Promise.resolve();
  private wakePending = false;
  private lastPruneAt = 0;
  private pollTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private closed = false;
  private readonly options: Required<EventBusOptions>;
  /** Told when a write finished in this process (the cluster worker tells its primary). */
  onLocalWrite?: () => void;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    options: EventBusOptions = {},
  ) {
    this.options = {
      heartbeatMs: 25_000,
      pollMs: 1000,
      batchSize: 500,
      maxReplay: 1000,
      keepMs: 24 * 60 * 60 * 1000,
      pruneEveryMs: 10 * 60 * 1000,
      ...options,
    };
  }

  /** Open streams in this process. */
  get size(): number {
    return this.streams.size;
  }

  /** A request that may have written finished here: read the log, and tell the other workers. */
  writeFinished(): void {
    this.onLocalWrite?.();
    this.wake();
  }

  /** Something may have been appended: read it (once for any number of wakes meanwhile). */
  wake(): void {
    if (this.closed) return;
    if (Date.now() - this.lastPruneAt >= this.options.pruneEveryMs) {
      this.lastPruneAt = Date.now();
      void this.enqueue(() => this.prune());
    }
    if (this.streams.size === 0 || this.wakePending) return;
    this.wakePending = true;
    void this.enqueue(async () => {
      this.wakePending = false;
      await this.deliverNew();
    });
  }

  /**
   * Turns the answer into this user's event stream: `retry`, `ready` with the current head, the
   * replay after `resumeFrom` (or `reset` when that is too old), then live events until the
   * client goes away or the process shuts down.
   */
  async open(res: Response, user: StreamUser, resumeFrom: number | undefined): Promise<void> {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store, no-transform');
    // nginx would otherwise hold the events in its buffer.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write(`retry: ${STREAM_RETRY_MS}\n\n`);
    const stream: Stream = {
      userId: user.id,
      role: user.role,
      tokenVersion: user.tokenVersion,
      res,
    };
    res.on('close', () => this.remove(stream));
    if (this.closed) {
      res.end();
      return;
    }
    await this.enqueue(async () => {
      if (res.writableEnded || res.destroyed) return;
      if (this.closed) return void res.end();
      // Bring the open streams up to the log's head first: this one starts there.
      if (this.streams.size === 0 || !this.headKnown) await this.readHead();
      else await this.deliverNew();
      const head = this.head;
      let replay: EventRow[] = [];
      let reset = false;
      if (resumeFrom !== undefined && resumeFrom !== head) {
        reset = resumeFrom > head || head - resumeFrom > this.options.maxReplay;
        if (!reset) {
          const oldest = await this.db
            .selectFrom('events')
            .select((eb) => eb.fn.min('id').as('id'))
            .executeTakeFirst();
          // Pruned: what came after resumeFrom is no longer all there.
          reset = oldest?.id == null || resumeFrom < Number(oldest.id) - 1;
        }
        if (!reset) {
          replay = await this.db
            .selectFrom('events')
            .selectAll()
            .where('id', '>', resumeFrom)
            .where('id', '<=', head)
            .orderBy('id')
            .execute();
        }
      }
      // A client that gets no replay is at the head: the id lets a plain EventSource resume
      // from there after a drop, even if no event reached it meanwhile.
      const readyId = replay.length === 0 ? `id: ${head}\n` : '';
      res.write(`${readyId}event: ready\ndata: ${JSON.stringify({ lastEventId: head })}\n\n`);
      if (reset) res.write(`event: ${LIVE_RESET_EVENT}\ndata: {}\n\n`);
      for (const row of replay) {
        if (this.mayReceive(stream, row, audienceOf(row))) res.write(frame(row));
      }
      this.streams.add(stream);
      this.startTimers();
    });
  }

  /** Ends every stream (shutdown): clients reconnect, to another process. */
  closeAll(): void {
    this.closed = true;
    this.stopTimers();
    for (const stream of [...this.streams]) {
      this.remove(stream);
      // Its connection too: a keep-alive connection left idle would hold the server open.
      stream.res.end(() => stream.res.socket?.end());
    }
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T | undefined> {
    const next = this.chain.then(work).catch((error: unknown) => {
      this.logger.error({ err: error }, 'live events: reading the log failed');
      return undefined;
    });
    this.chain = next;
    return next;
  }

  private async readHead(): Promise<void> {
    const row = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    this.head = row?.id == null ? 0 : Number(row.id);
    this.headKnown = true;
  }

  /** Every row after the head, in id order, to the streams that may see each. */
  private async deliverNew(): Promise<void> {
    if (this.streams.size === 0) return;
    if (!this.headKnown) await this.readHead();
    for (;;) {
      const rows = await this.db
        .selectFrom('events')
        .selectAll()
        .where('id', '>', this.head)
        .orderBy('id')
        .limit(this.options.batchSize)
        .execute();
      if (rows.length === 0) return;
      const audiences = rows.map(audienceOf);
      await this.endEndedSessions(rows, audiences);
      for (const [index, row] of rows.entries()) {
        const audience = audiences[index]!;
        const text = frame(row);
        for (const stream of this.streams) {
          if (!this.mayReceive(stream, row, audience)) continue;
          stream.res.write(text);
          // A client that stopped reading would hold this process's memory.
          if (stream.res.writableLength > MAX_BUFFERED_BYTES) this.end(stream);
        }
      }
      this.head = Number(rows.at(-1)!.id);
      if (rows.length < this.options.batchSize) return;
    }
  }

  private mayReceive(stream: Stream, row: EventRow, audience: Set<string>): boolean {
    return audience.has(stream.userId) || (row.to_admins === 1 && stream.role === 'admin');
  }

  /**
   * Before a batch, the people whose streams would receive any of it are read again: a stream
   * whose account was deactivated, deleted, or whose sessions were ended since it opened (a
   * role or password change raises the token version, as does a deactivation) is closed
   * instead, as its requests would be refused (an admin made a member stops receiving other
   * people's tasks at once; a deactivated member stops hearing about theirs). One query, only
   * for the streams concerned; the client's reconnection is then refused and says why.
   * `audiences`: each row's, read once by the caller.
   */
  private async endEndedSessions(
    rows: readonly EventRow[],
    audiences: ReadonlyArray<Set<string>>,
  ): Promise<void> {
    const toAdmins = rows.some((row) => row.to_admins === 1);
    const addressed = new Set(audiences.flatMap((audience) => [...audience]));
    const concerned = [...this.streams].filter(
      (stream) => (toAdmins && stream.role === 'admin') || addressed.has(stream.userId),
    );
    if (concerned.length === 0) return;
    const users = await this.db
      .selectFrom('users')
      .select(['id', 'active', 'token_version'])
      .where('id', 'in', [...new Set(concerned.map((stream) => stream.userId))])
      .execute();
    const now = new Map(users.map((user) => [user.id, user]));
    for (const stream of concerned) {
      const user = now.get(stream.userId);
      if (!user || Number(user.active) !== 1 || user.token_version !== stream.tokenVersion) {
        this.end(stream);
      }
    }
  }

  /**
   * Deletes the events older than keepMs: every one before the first still young enough, in id
   * order (ids follow commits, and the times all but follow them; the log keeps no index of its
   * times for this). The newest event stays, however old: SQLite gives a new event the highest id
   * + 1, so a log pruned empty would hand out again ids that clients still hold (migration
   * 2026-11-29-615).
   */
  private async prune(): Promise<void> {
    const before = new Date(Date.now() - this.options.keepMs).toISOString();
    await sql`delete from events where id < coalesce(
        (select id from events where at >= ${before} order by id limit 1),
        (select max(id) from events))`.execute(this.db);
  }

  private end(stream: Stream): void {
    this.remove(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  private remove(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    if (this.streams.size === 0) {
      this.stopTimers();
      this.headKnown = false;
    }
  }

  private startTimers(): void {
    this.pollTimer ??= setInterval(() => this.wake(), this.options.pollMs).unref();
    this.heartbeatTimer ??= setInterval(() => {
      for (const stream of this.streams) stream.res.write(': ping\n\n');
    }, this.options.heartbeatMs).unref();
  }

  private stopTimers(): void {
    clearInterval(this.pollTimer);
    clearInterval(this.heartbeatTimer);
    this.pollTimer = undefined;
    this.heartbeatTimer = undefined;
  }
}
