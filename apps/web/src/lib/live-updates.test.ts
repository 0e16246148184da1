import { LIVE_RESET_EVENT, liveEventTypes, type LiveEvent } from '@task-manager/shared';
import type { QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  InvalidationBatcher,
  LIVE_EVENT_TYPES,
  LiveConnection,
  parseLiveEvent,
  reconnectDelay,
  staleKeysFor,
  type EventSourceLike,
  type LiveMessage,
  type Timers,
} from './live-updates';
import { queryKeys } from './query-keys';

/** Timers run by hand: `advance(ms)` fires what is due, in order. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    set: (run, ms) => {
      const id = next++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clear: (id) => void pending.delete(id as number),
  };
  return {
    timers,
    delays: () => [...pending.values()].map((timer) => timer.at - now),
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending].sort(([, a], [, b]) => a.at - b.at)) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.run();
      }
    },
  };
}

/** An EventSource stand-in the test drives: `emit` an event, `fail` the connection. */
class FakeSource implements EventSourceLike {
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown, lastEventId = '') {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function connection({
  ticketFails = () => false,
  permanent = false,
}: { ticketFails?: () => boolean; permanent?: boolean } = {}) {
  const clock = manualTimers();
  const sources: FakeSource[] = [];
  const messages: LiveMessage[] = [];
  let tickets = 0;
  const live = new LiveConnection({
    requestTicket: async () => {
      tickets += 1;
      if (ticketFails()) throw new Error('offline');
      return `ticket-${tickets}`;
    },
    openStream: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    onMessage: (message) => messages.push(message),
    isPermanentFailure: () => permanent,
    timers: clock.timers,
  });
  return { live, clock, sources, messages, tickets: () => tickets };
}

const event = (type: LiveEvent['type'], taskId: string | null = 't1') => ({
  type,
  taskId,
  at: '2026-11-25T08:00:00.000Z',
  data: {},
});

describe('the event names', () => {
  it('are those of the shared schema', () => {
    expect([...LIVE_EVENT_TYPES]).toEqual([...liveEventTypes]);
    expect(LIVE_RESET_EVENT).toBe('reset');
  });

  it('parseLiveEvent keeps well-formed data and drops the rest', () => {
    expect(parseLiveEvent('task.updated', JSON.stringify(event('task.updated')))).toEqual(
      event('task.updated'),
    );
    expect(parseLiveEvent('task.updated', '[1]')).toBeNull();
    expect(parseLiveEvent('task.updated', '{"taskId": 5}')).toBeNull();
    expect(parseLiveEvent('task.updated', 'not json')).toBeNull();
  });
});

describe('reconnectDelay', () => {
  it('waits 1 s, then twice as long per failed attempt, at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(reconnectDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('LiveConnection', () => {
  it('opens the stream with a ticket and hands over checked events', async () => {
    const { live, sources, messages } = connection();
    live.start();
    await flush();
    expect(sources.map((source) => source.url)).toEqual(['/api/events?ticket=ticket-1']);
    sources[0]!.emit('ready', { lastEventId: 7 });
    sources[0]!.emit('task.updated', event('task.updated'), '8');
    sources[0]!.emit('comment.added', { nonsense: true }, '9');
    sources[0]!.emit('reset', {}, '120');
    expect(messages).toEqual([
      { kind: 'event', event: event('task.updated') },
      { kind: 'event', event: { ...event('comment.added', null), at: '' } },
      { kind: 'reset' },
    ]);
    expect(live.lastEventId).toBe('120');
  });

  it('after a drop, closes the stream and resumes with a new ticket from the last event seen', async () => {
    const { live, clock, sources } = connection();
    live.start();
    await flush();
    sources[0]!.emit('ready', { lastEventId: 7 });
    sources[0]!.emit('checklist.changed', event('checklist.changed'), '9');
    sources[0]!.fail();
    expect(sources[0]!.closed).toBe(true);
    expect(clock.delays()).toEqual([1_000]);
    clock.advance(1_000);
    await flush();
    expect(sources[1]!.url).toBe('/api/events?ticket=ticket-2&lastEventId=9');
  });

  it('backs off 1 s, 2 s, 4 s while it cannot connect, and starts over once connected', async () => {
    let failing = true;
    const { live, clock, sources, tickets } = connection({ ticketFails: () => failing });
    live.start();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await flush();
      waits.push(...clock.delays());
      if (attempt === 2) failing = false;
      clock.advance(clock.delays()[0]!);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    await flush();
    expect(tickets()).toBe(4);
    sources[0]!.emit('ready', { lastEventId: 1 });
    sources[0]!.fail();
    expect(clock.delays()).toEqual([1_000]);
  });

  it('reconnects at once when the tab is visible again, instead of waiting out the backoff', async () => {
    const { live, clock, sources } = connection();
    live.start();
    await flush();
    sources[0]!.fail();
    expect(clock.delays()).toEqual([1_000]);
    live.resume();
    await flush();
    expect(sources).toHaveLength(2);
    expect(clock.delays()).toEqual([]);
    live.resume();
    await flush();
    expect(sources).toHaveLength(2);
  });

  it('gives up for good on a permanent failure (an API without the stream)', async () => {
    const { live, clock, sources } = connection({ ticketFails: () => true, permanent: true });
    live.start();
    await flush();
    expect(clock.delays()).toEqual([]);
    live.resume();
    await flush();
    expect(sources).toEqual([]);
  });

  it('stops on sign-out: the stream closes and nothing reconnects', async () => {
    const { live, clock, sources } = connection();
    live.start();
    await flush();
    live.stop();
    expect(sources[0]!.closed).toBe(true);
    sources[0]!.fail();
    expect(clock.delays()).toEqual([]);
  });
});

describe('staleKeysFor', () => {
  it('a task change moves the lists, dashboards, counts and the task itself', () => {
    const keys = staleKeysFor(event('checklist.changed', 't1'));
    expect(keys).toContainEqual(queryKeys.tasks.lists());
    expect(keys).toContainEqual(queryKeys.dashboard.all);
    expect(keys).toContainEqual(queryKeys.tasks.detail('t1'));
    expect(keys).toContainEqual(queryKeys.tasks.activity('t1'));
  });

  it('a deleted task leaves the lists and is fetched again, so its open page learns it is gone', () => {
    const keys = staleKeysFor(event('task.deleted', 't1'));
    expect(keys).toContainEqual(queryKeys.tasks.lists());
    expect(keys).toContainEqual(queryKeys.tasks.detail('t1'));
    // Its timeline would only fail too: the page shows "Task not found" instead.
    expect(keys).not.toContainEqual(queryKeys.tasks.activity('t1'));
  });

  it('a comment moves the task timeline; a notification the bell', () => {
    expect(staleKeysFor(event('comment.added', 't1'))).toContainEqual(
      queryKeys.tasks.comments('t1'),
    );
    expect(staleKeysFor(event('notification.created', null))).toEqual([
      queryKeys.notifications.all,
    ]);
  });

  it('an account change moves the session (the side menu), the team and what names people', () => {
    const keys = staleKeysFor(event('user.updated', null));
    expect(keys).toContainEqual(queryKeys.profile);
    expect(keys).toContainEqual(queryKeys.users.all);
    expect(keys).toContainEqual(queryKeys.tasks.all);
  });
});

describe('InvalidationBatcher', () => {
  it('hands over a burst once, 150 ms after its first event, without duplicates', () => {
    const { timers, advance } = manualTimers();
    const flushed: Array<QueryKey[] | 'all'> = [];
    const batcher = new InvalidationBatcher((keys) => flushed.push(keys), 150, timers);
    for (let index = 0; index < 50; index += 1) {
      batcher.add([queryKeys.tasks.detail('t1'), queryKeys.dashboard.admin()]);
    }
    batcher.add([queryKeys.dashboard.all]);
    advance(149);
    expect(flushed).toEqual([]);
    advance(1);
    expect(flushed).toEqual([[queryKeys.tasks.detail('t1'), queryKeys.dashboard.all]]);
    batcher.add([queryKeys.notifications.all]);
    advance(150);
    expect(flushed).toHaveLength(2);
  });

  it('a reset in the burst refetches everything', () => {
    const { timers, advance } = manualTimers();
    const flushed: Array<QueryKey[] | 'all'> = [];
    const batcher = new InvalidationBatcher((keys) => flushed.push(keys), 150, timers);
    batcher.add([queryKeys.tasks.detail('t1')]);
    batcher.add('all');
    batcher.add([queryKeys.notifications.all]);
    advance(150);
    expect(flushed).toEqual(['all']);
  });
});
