import type { BeforeRequestHook } from 'ky';
import { api, type RequestDescription } from '../lib/api-client';

export interface RecordedRequest {
  method: string;
  url: string;
  params: Record<string, unknown> | undefined;
  responseType: string | undefined;
  /** The JSON body as sent, parsed back (FormData for an upload). */
  body: unknown;
}

/** An answer; `headers` adds response headers (e.g. X-Next-Cursor). */
type Answer = { status: number; data: unknown; headers?: Record<string, string> };
type Reply = Answer | Promise<Answer>;

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

/**
 * Replaces the HTTP layer of the app's API client (unit tests only): every request is recorded
 * and answered by `respond` instead of going out. It is the last `beforeRequest` hook of the ky
 * instance, so the token hook has run; a 4xx or 5xx answer fails the way a real one does.
 */
export function stubApi(respond: (request: RecordedRequest) => Reply) {
  const requests: RecordedRequest[] = [];
  const original = api.http;
  const answer: BeforeRequestHook = async (request, options) => {
    const described = options.context as unknown as RequestDescription;
    const recorded: RecordedRequest = {
      method: request.method.toUpperCase(),
      url: described.url,
      params: described.params,
      responseType: described.responseType,
      body: await sentBody(request.clone()),
    };
    requests.push(recorded);
    return toResponse(await respond(recorded));
  };
  api.http = original.extend({ hooks: { beforeRequest: [answer] } });
  return {
    requests,
    restore: () => {
      api.http = original;
    },
  };
}
