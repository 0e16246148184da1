import type { Page, Response } from 'playwright-core';

/** Whether a URL is the live-updates stream (not the ticket request). */
export function isEventStream(url: string): boolean {
  return new URL(url).pathname === '/api/events';
}

/**
 * Resolves once the page's event stream has answered (its headers arrived): from then on the
 * page hears about changes. Call before the navigation that opens it.
 */
export function liveStreamOpened(page: Page): Promise<Response> {
  return page.waitForResponse((response) => isEventStream(response.url()), { timeout: 15_000 });
}

/** The position of the event log now, as the server tells a new stream in its `ready` event. */
export async function currentEventId(baseURL: string, token: string): Promise<number> {
  const ticketAnswer = await fetch(`${baseURL}/api/events/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const { ticket } = (await ticketAnswer.json()) as { ticket: string };
  const controller = new AbortController();
  const stream = await fetch(`${baseURL}/api/events?ticket=${encodeURIComponent(ticket)}`, {
    signal: controller.signal,
  });
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before its ready event:\n${text}`);
      text += decoder.decode(value, { stream: true });
      const ready = /event: ready\ndata: (.*)\n/.exec(text);
      if (ready) return (JSON.parse(ready[1]!) as { lastEventId: number }).lastEventId;
    }
  } finally {
    controller.abort();
  }
}
