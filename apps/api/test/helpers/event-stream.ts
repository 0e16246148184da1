import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Test } from 'supertest';

/** One Server-Sent Event as a client reads it (a `: ping` comment has event `comment`). */
export interface ReceivedEvent {
  id?: string;
  event: string;
  data: string;
  /** When it arrived (performance.now()). */
  at: number;
}

export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** Everything received so far, in order (the `retry:` line as event `retry`). */
  events: ReceivedEvent[];
  /** Waits for an event matching `match` (from the `from`-th on); fails after `ms`. */
  waitFor(
    match: (event: ReceivedEvent) => boolean,
    ms?: number,
    from?: number,
  ): Promise<ReceivedEvent>;
  /** The stream ended (server closed it). */
  ended: Promise<void>;
  close(): void;
}

/** Parses one SSE block (the lines between two blank lines). */
function parseBlock(block: string, at: number): ReceivedEvent | undefined {
  const event: ReceivedEvent = { event: 'message', data: '', at };
  let any = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) return { event: 'comment', data: line.slice(1).trim(), at };
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    any = true;
    if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'data') event.data = event.data ? `${event.data}\n${value}` : value;
    else if (field === 'retry') {
      event.event = 'retry';
      event.data = value;
    }
  }
  return any ? event : undefined;
}

/**
 * Opens `url` as an event stream over real HTTP (fetch), reading events as they come. A non-200
 * answer is read whole and returned with no events.
 */
export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStreamClient & { body: string }> {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: ReceivedEvent[] = [];
  if (res.status !== 200) {
    const body = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      events,
      body,
      waitFor: () => Promise.reject(new Error(`stream refused: ${res.status} ${body}`)),
      ended: Promise.resolve(),
      close: () => undefined,
    };
  }
  let buffer = '';
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const parsed = parseBlock(buffer.slice(0, end), performance.now());
          buffer = buffer.slice(end + 2);
          if (parsed) events.push(parsed);
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  const waitFor = async (
    match: (event: ReceivedEvent) => boolean,
    ms = 5000,
    from = 0,
  ): Promise<ReceivedEvent> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = events.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    events,
    body: '',
    waitFor,
    ended,
    close: () => controller.abort(),
  };
}

/** The app listening on a free port of 127.0.0.1, for clients that need a real socket. */
export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A supertest request for `GET /api/events`, read up to the stream's `ready` event and then hung
 * up: a stream never ends by itself. Other answers (errors) are read whole, as usual.
 */
export function untilReady(req: Test): Test {
  return req.buffer(true).parse((res, done) => {
    const stream = res as unknown as NodeJS.ReadableStream & { destroy(): void };
    let text = '';
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      const type = String(
        (res as unknown as { headers: Record<string, string> }).headers['content-type'],
      );
      done(null, type.startsWith('application/json') ? JSON.parse(text) : text);
    };
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (!text.includes('event: ready')) return;
      finish();
      stream.destroy();
    });
    stream.on('end', finish);
  });
}
