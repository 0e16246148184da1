/**
 * Answers to requests src/boot/early-requests.ts started before the app's code had loaded. The
 * API client's fetch takes one instead of asking again when the app's request is the same one:
 * a GET of that path, no query, the same token, and soon after the page opened. Each is handed
 * over once; anything else, or an early request that failed, goes to the network as usual.
 */
export interface EarlyRequests {
  /** The token the requests were sent with. */
  token: string;
  /** performance.now() when they started. */
  startedAt: number;
  /** By path; null when a request turned out not to apply (another role's dashboard). */
  responses: Record<string, Promise<Response | null>>;
}

declare global {
  interface Window {
    __earlyRequests?: EarlyRequests;
  }
}

/** Past this, an answer nobody took is stale: the app asks again. */
const FRESH_FOR_MS = 10_000;

export function takeEarlyResponse(request: Request): Promise<Response | null> | undefined {
  const early = window.__earlyRequests;
  if (!early || request.method !== 'GET') return undefined;
  const url = new URL(request.url);
  if (url.origin !== window.location.origin || url.search !== '') return undefined;
  const response = early.responses[url.pathname];
  if (!response) return undefined;
  delete early.responses[url.pathname];
  if (performance.now() - early.startedAt > FRESH_FOR_MS) return undefined;
  if (request.headers.get('Authorization') !== `Bearer ${early.token}`) return undefined;
  return response.catch(() => null);
}

/** fetch, or the early answer to the same request when there is one. */
export async function fetchOrTakeEarly(
  input: Request | URL | string,
  init?: RequestInit,
): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const early = await takeEarlyResponse(request);
  return early ?? fetch(input, init);
}
