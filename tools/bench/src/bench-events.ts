import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { rssBytesOf } from './server.js';

/**
 * Live updates at scale (`GET /api/events`): N event streams open on one API process, the
 * memory they take, and how long one change takes to reach all of them.
 *
 * Every stream is opened as the admin (who receives every task's events) with its own ticket, as
 * a browser's EventSource does, over a connection of its own. Then K checklist ticks are made
 * through the API, one at a time, each on a different task, and every stream's arrival of the
 * matching `checklist.changed` is timed from the moment the tick's answer arrived. The ticked
 * items are put back afterwards. The streams are read by this process, on the same cores as the
 * API: the delays include this side's reading of N sockets.
 */

export interface EventStreamsOptions {
  /** Streams to open (1,000). */
  streams?: number;
  /** Changes made while they are open (20). */
  changes?: number;
  /** Pause between one change reaching every stream and the next change (100 ms). */
  spacingMs?: number;
  /** Streams being opened at once (32). */
  openConcurrency?: number;
  /** How long a stream may take to deliver a change before it counts as missed (10 s). */
  deliveryTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface EventStreamsResult {
  streams: number;
  /** Seconds to open every stream (ticket + stream + `event: ready`). */
  openSeconds: number;
  /** The API process's VmRSS before the streams were opened and once all were ready. */
  rssBeforeBytes: number | null;
  rssAfterBytes: number | null;
  /** (after − before) / streams: indicative, the garbage collector moves RSS too. */
  rssPerStreamBytes: number | null;
  changes: number;
  /** Round trip of the tick requests themselves, while the streams were open. */
  writeP50Ms: number;
  writeMaxMs: number;
  /** From a tick's answer arriving here to a stream receiving its event, over every pair. */
  fanOutP50Ms: number;
  fanOutP99Ms: number;
  fanOutMaxMs: number;
  /** Stream × change pairs that got no event within the timeout (must be 0). */
  missedEvents: number;
  /** Streams that missed at least one change, or were closed by the server (must be 0). */
  streamsMissing: number;
}

interface ChecklistTask {
  _id: string;
  todoChecklist: Array<{ _id: string; completed: boolean }>;
}

interface Change {
  taskId: string;
  itemId: string;
  /** The item's state before the benchmark; the change sets the other one. */
  completed: boolean;
}

interface OpenStream {
  request: http.ClientRequest;
  ready: Promise<void>;
  closedEarly: boolean;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** `onAnswer`: called when the answer's head arrives, before its body is read. */
async function callApi(
  url: string,
  path: string,
  token: string,
  init: RequestInit = {},
  onAnswer?: () => void,
) {
  const res = await fetch(new URL(path, url), {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  onAnswer?.();
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text.slice(0, 300)}`);
  }
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/**
 * One change per task, on tasks of two items or more, chosen so that it never completes a task:
 * a ticked item is unticked, else (nothing ticked) the first item is ticked.
 */
async function pickChanges(url: string, token: string, count: number): Promise<Change[]> {
  const changes: Change[] = [];
  let cursor: string | null | undefined;
  do {
    const page = (await callApi(
      url,
      `/api/tasks?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      token,
    )) as { tasks: ChecklistTask[]; nextCursor?: string | null };
    for (const task of page.tasks) {
      if (changes.length === count) break;
      if (task.todoChecklist.length < 2) continue;
      const item = task.todoChecklist.find((i) => i.completed) ?? task.todoChecklist[0]!;
      changes.push({ taskId: task._id, itemId: item._id, completed: item.completed });
    }
    cursor = page.nextCursor;
  } while (cursor && changes.length < count);
  if (changes.length < count) {
    throw new Error(
      `Only ${changes.length} tasks with two checklist items or more; need ${count}.`,
    );
  }
  return changes;
}

const tick = (
  url: string,
  token: string,
  change: Change,
  completed: boolean,
  onAnswer?: () => void,
) =>
  callApi(
    url,
    `/api/tasks/${change.taskId}/todo/${change.itemId}`,
    token,
    { method: 'PATCH', body: JSON.stringify({ completed }) },
    onAnswer,
  );

/** Runs `work` for 0 … count-1 with at most `width` at once. */
async function inParallel(count: number, width: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/**
 * Opens `streams` event streams as the admin on the API at `url` (process `pid`), makes `changes`
 * checklist ticks and times their delivery to every stream; closes everything before returning.
 */
export async function measureEventStreams(
  url: string,
  adminToken: string,
  pid: number,
  options: EventStreamsOptions = {},
): Promise<EventStreamsResult> {
  const {
    streams: count = 1000,
    changes: changeCount = 20,
    spacingMs = 100,
    openConcurrency = 32,
    deliveryTimeoutMs = 10_000,
    log = () => undefined,
  } = options;
  const changes = await pickChanges(url, adminToken, changeCount);
  // One connection per stream, no more: each stays open for the whole run.
  const agent = new http.Agent({ keepAlive: false, maxSockets: count });
  const open: OpenStream[] = [];
  /** arrivals[change][stream]: performance.now() when that stream received that change. */
  const arrivals = changes.map(() => new Array<number | undefined>(count).fill(undefined));
  let current: { index: number; taskId: string; waiting: number; done: () => void } | undefined;

  const received = (stream: number, event: string, data: string, at: number) => {
    if (!current || event !== 'checklist.changed') return;
    if ((JSON.parse(data) as { taskId?: string }).taskId !== current.taskId) return;
    const row = arrivals[current.index]!;
    if (row[stream] !== undefined) return;
    row[stream] = at;
    if (--current.waiting === 0) current.done();
  };

  const openOne = async (index: number): Promise<void> => {
    const { ticket } = (await callApi(url, '/api/events/ticket', adminToken, {
      method: 'POST',
    })) as { ticket: string };
    const request = http.get(new URL(`/api/events?ticket=${encodeURIComponent(ticket)}`, url), {
      agent,
      headers: { accept: 'text/event-stream' },
    });
    const stream: OpenStream = { request, ready: Promise.resolve(), closedEarly: false };
    open[index] = stream;
    stream.ready = new Promise<void>((resolve, reject) => {
      request.on('error', reject);
      request.on('response', (res) => {
        res.on('error', reject);
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET /api/events: ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = '';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data = line.slice(6);
            }
            if (event === 'ready') resolve();
            else if (event) received(index, event, data, at);
          }
        });
        res.on('close', () => {
          stream.closedEarly = true;
          reject(new Error('the stream closed before `event: ready`'));
        });
      });
    });
    await stream.ready;
  };

  const closeAll = () => {
    for (const stream of open) stream?.request.destroy();
    agent.destroy();
  };

  try {
    const rssBefore = rssBytesOf(pid) ?? null;
    const openStart = performance.now();
    await inParallel(count, openConcurrency, openOne);
    const openSeconds = (performance.now() - openStart) / 1000;
    log(`  ${count} streams ready in ${openSeconds.toFixed(1)} s`);
    // Let what opening them allocated settle before reading the memory.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssAfter = rssBytesOf(pid) ?? null;

    const writeMs: number[] = [];
    const delays: number[] = [];
    let missedEvents = 0;
    const streamsMissing = new Set<number>();
    for (const [index, change] of changes.entries()) {
      const delivered = new Promise<void>((done) => {
        current = { index, taskId: change.taskId, waiting: count, done };
      });
      const sent = performance.now();
      let answered = 0;
      await tick(url, adminToken, change, !change.completed, () => (answered = performance.now()));
      writeMs.push(answered - sent);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        delivered,
        new Promise((resolve) => (timer = setTimeout(resolve, deliveryTimeoutMs))),
      ]);
      clearTimeout(timer);
      current = undefined;
      for (const [stream, at] of arrivals[index]!.entries()) {
        if (at === undefined) {
          missedEvents++;
          streamsMissing.add(stream);
        } else {
          // Read in the same turn as the answer, an event may be seen a hair before it: 0.
          delays.push(Math.max(0, at - answered));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, spacingMs));
    }
    open.forEach((stream, index) => stream.closedEarly && streamsMissing.add(index));

    delays.sort((a, b) => a - b);
    writeMs.sort((a, b) => a - b);
    return {
      streams: count,
      openSeconds: round(openSeconds),
      rssBeforeBytes: rssBefore,
      rssAfterBytes: rssAfter,
      rssPerStreamBytes:
        rssBefore !== null && rssAfter !== null ? Math.round((rssAfter - rssBefore) / count) : null,
      changes: changes.length,
      writeP50Ms: round(percentile(writeMs, 0.5)),
      writeMaxMs: round(writeMs.at(-1) ?? 0),
      fanOutP50Ms: round(percentile(delays, 0.5)),
      fanOutP99Ms: round(percentile(delays, 0.99)),
      fanOutMaxMs: round(delays.at(-1) ?? 0),
      missedEvents,
      streamsMissing: streamsMissing.size,
    };
  } finally {
    current = undefined;
    try {
      // Every ticked item back as it was (the streams are still open; their events are ignored).
      for (const change of changes) await tick(url, adminToken, change, change.completed);
    } finally {
      closeAll();
    }
  }
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 2 ** 20).toFixed(1)}`);

/** The figures as rows of a small table. */
export function eventStreamsTable(result: EventStreamsResult) {
  const perStream =
    result.rssPerStreamBytes === null ? 'n/a' : `${(result.rssPerStreamBytes / 1024).toFixed(1)}`;
  return [
    { figure: 'open streams', value: result.streams },
    { figure: 'time to open all (s)', value: result.openSeconds },
    {
      figure: 'API RSS before / after (MB)',
      value: `${mb(result.rssBeforeBytes)} / ${mb(result.rssAfterBytes)}`,
    },
    { figure: 'RSS per stream (KB)', value: perStream },
    { figure: 'changes (checklist ticks)', value: result.changes },
    {
      figure: 'tick round trip p50 / max (ms)',
      value: `${result.writeP50Ms} / ${result.writeMaxMs}`,
    },
    { figure: 'fan-out delay p50 (ms)', value: result.fanOutP50Ms },
    { figure: 'fan-out delay p99 (ms)', value: result.fanOutP99Ms },
    { figure: 'fan-out delay max (ms)', value: result.fanOutMaxMs },
    { figure: 'missed stream × change pairs', value: result.missedEvents },
    { figure: 'streams that missed an event', value: result.streamsMissing },
  ];
}
