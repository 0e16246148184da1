import type { BeforeRequestHook } from 'ky';
import { api, type RequestDescription } from '../lib/api-client';

/**
 * The one way unit tests stand in for the server: at the HTTP layer of the app's API client, so
 * everything above it (the fetchers, the token header, error handling, TanStack Query) runs as in
 * the app. Our own modules are never mocked.
 */

export interface RecordedRequest {
  method: string;
  /** The path as the caller wrote it, without the query string. */
  url: string;
  params: Record<string, unknown> | undefined;
  /** The query string the client built from `params`, as sent ('' when none). */
  query: string;
  responseType: string | undefined;
  /** The request headers as sent, names in lower case (e.g. authorization). */
  headers: Record<string, string>;
  /** The JSON body as sent, parsed back (FormData for an upload). */
  body: unknown;
}

/** An answer; `headers` adds response headers (e.g. X-Next-Cursor); a Blob `data` is a file. */
export interface Answer {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
}

/**
 * What the fake server does with a request: an answer, nothing (a 404 {message: 'Not found'}),
 * or a thrown error, which the app sees as the network failing (e.g. offline).
 */
export type Respond = (
  request: RecordedRequest,
) => Answer | undefined | Promise<Answer | undefined>;

const NOT_FOUND: Answer = { status: 404, data: { message: 'Not found' } };

async function sentBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) return request.formData();
  const text = await request.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function toResponse({ status, data, headers = {} }: Answer): Promise<Response> {
  // jsdom's Blob is not the Blob Node's Response reads, so its bytes are handed over instead.
  if (data instanceof Blob) {
    return new Response(await data.arrayBuffer(), {
      status,
      headers: { 'Content-Type': data.type || 'application/octet-stream', ...headers },
    });
  }
  const empty = data === undefined || status === 204;
  return new Response(empty ? null : JSON.stringify(data), {
    status,
    headers: empty ? headers : { 'Content-Type': 'application/json', ...headers },
  });
}

const realHttp = api.http;

/** Puts the real HTTP layer back; the test setup does it after every test. */
export function restoreApi() {
  api.http = realHttp;
}

/**
 * Every request the app sends is recorded and answered by `respond` instead of going out, until
 * the test ends. It is the last `beforeRequest` hook of the ky instance, so the token hook has
 * run; a 4xx or 5xx answer fails the way a real one does.
 */
export function stubApi(respond: Respond) {
  const requests: RecordedRequest[] = [];
  const answer: BeforeRequestHook = async (request, options) => {
    const described = options.context as unknown as RequestDescription;
    const recorded: RecordedRequest = {
      method: request.method.toUpperCase(),
      url: described.url,
      params: described.params,
      query: new URL(request.url).search,
      responseType: described.responseType,
      headers: Object.fromEntries(request.headers),
      body: await sentBody(request.clone()),
    };
    requests.push(recorded);
    return toResponse((await respond(recorded)) ?? NOT_FOUND);
  };
  api.http = realHttp.extend({ hooks: { beforeRequest: [answer] } });
  return { requests, restore: restoreApi };
}
