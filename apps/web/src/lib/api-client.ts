import ky, { HTTPError, TimeoutError } from 'ky';
import { translateServerText } from './i18n';

export const TOKEN_KEY = 'token';
/** Spec section 9: every request gives up after 50 seconds. */
export const REQUEST_TIMEOUT_MS = 50_000;

/**
 * The role of whoever signed in on this browser, as the last session check answered: opening the
 * app on that role's dashboard, its data goes out before the check answers (see router.tsx). A
 * hint only; the server decides what anyone may see. Cleared with the rest of the session.
 */
export const ROLE_KEY = 'role';

/** What this browser keeps under `key`, or null (storage can be unavailable: a private window). */
function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export const getStoredRole = (): string | null => readStored(ROLE_KEY);

export const getStoredToken = (): string | null => readStored(TOKEN_KEY);

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  /** Added to the URL as ?name=value (undefined values are left out). */
  params?: QueryParams;
  /** How to read the answer: JSON unless told otherwise (a report download wants a Blob). */
  responseType?: 'json' | 'blob' | 'text';
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Sent while the session check at start-up is still out (a landing page's data, asked for
   * alongside it): a 401 is left to that check, the one place that says the session is over.
   */
  beforeSessionCheck?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  /** The response headers, names in lower case (e.g. headers['x-next-cursor']). */
  headers: Record<string, string>;
}

/** What one call asked for, as the caller wrote it; ky hands it to hooks as `options.context`. */
export interface RequestDescription {
  url: string;
  params: QueryParams | undefined;
  responseType: RequestOptions['responseType'];
}

/** A 4xx or 5xx answer: its status and body (our API sends `{message}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly url: string,
  ) {
    super(`Request failed with status code ${status}`);
    this.name = 'ApiError';
  }
}

/**
 * A 401 from the sign-in and sign-up calls means wrong credentials and is shown under the form;
 * the session check at start-up handles its own 401. Any other 401 means the session is over.
 */
const CREDENTIAL_CALLS = ['/api/auth/login', '/api/auth/register', '/api/auth/profile'];

let onUnauthorized: ((failure: ApiError) => void) | null = null;

/** True from the moment a session ends until the next page shows (see holdRequests). */
let held = false;

/**
 * As a session ends, the page still on screen (until the sign-in page has loaded) must not ask
 * again, without a token, for what its cleared queries held: held, those calls fail here,
 * unsent. Sign-in calls and calls carrying their own token (the logout) still go.
 */
export function holdRequests(on: boolean) {
  held = on;
}

/**
 * The session provider registers what "the session is over" does (clear it, say why, go to
 * /login), given the refused answer.
 */
export function setUnauthorizedHandler(handler: ((failure: ApiError) => void) | null) {
  onUnauthorized = handler;
}

/**
 * The ky instance every call goes through: the stored token as a Bearer header, the 50 s timeout,
 * and no retries of its own (TanStack Query decides what is retried).
 */
const http = ky.create({
  timeout: REQUEST_TIMEOUT_MS,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = getStoredToken();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
  },
});

async function readBody(response: Response, responseType: RequestOptions['responseType']) {
  if (responseType === 'blob') return response.blob();
  const text = await response.text();
  if (responseType === 'text') return text;
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The error body when it is JSON, so errorMessage() can show the server's `{message}`. */
async function readErrorBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

async function request<T, R = ApiResponse<T>>(
  method: string,
  url: string,
  body: unknown,
  { params, responseType, headers, signal, beforeSessionCheck = false }: RequestOptions = {},
): Promise<R> {
  if (held && !headers?.Authorization && !CREDENTIAL_CALLS.some((path) => url.startsWith(path)))
    throw new ApiError(401, { message: 'Signed out' }, url);
  const context: RequestDescription = { url, params, responseType };
  // FormData sets its own multipart Content-Type with the boundary; anything else goes as JSON.
  const isForm = body instanceof FormData;
  const sentHeaders = { ...headers };
  if (isForm) {
    for (const name of Object.keys(sentHeaders)) {
      if (name.toLowerCase() === 'content-type') delete sentHeaders[name];
    }
  }
  try {
    // Resolved against the page, so the same path works in the browser and in jsdom's tests.
    const response = await api.http(new URL(url, window.location.href), {
      method,
      searchParams: params,
      headers: sentHeaders,
      signal,
      context: { ...context },
      ...(body === undefined ? {} : isForm ? { body } : { json: body }),
    });
    const data = (await readBody(response, responseType)) as T;
    const answer: ApiResponse<T> = {
      data,
      status: response.status,
      headers: Object.fromEntries(response.headers),
    };
    return answer as R;
  } catch (error) {
    if (error instanceof HTTPError) {
      const { status } = error.response;
      const failure = new ApiError(status, await readErrorBody(error.response), url);
      const sessionOver =
        status === 401 &&
        !beforeSessionCheck &&
        !CREDENTIAL_CALLS.some((path) => url.startsWith(path));
      if (sessionOver) {
        onUnauthorized?.(failure);
      } else if (status >= 500) {
        console.warn('server error. please try again later.');
      }
      throw failure;
    }
    if (error instanceof TimeoutError) console.warn('Request timeout. please try again.');
    throw error;
  }
}

/**
 * Every call of the app: same origin, JSON in and out, `{data, status, headers}` back, and an
 * ApiError for a 4xx or 5xx. `http` is the ky instance underneath (the unit tests' stub extends it).
 */
export const api = {
  http,
  // R mirrors axios's signature, so a test can stand in a partial response for a spied call.
  get: <T = unknown, R = ApiResponse<T>>(url: string, options?: RequestOptions) =>
    request<T, R>('GET', url, undefined, options),
  delete: <T = unknown, R = ApiResponse<T>>(url: string, options?: RequestOptions) =>
    request<T, R>('DELETE', url, undefined, options),
  post: <T = unknown, R = ApiResponse<T>>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T, R>('POST', url, body, options),
  put: <T = unknown, R = ApiResponse<T>>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T, R>('PUT', url, body, options),
  patch: <T = unknown, R = ApiResponse<T>>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T, R>('PATCH', url, body, options),
};

/**
 * The server's `{message}` when it sent one (in the app's language when it is one of the API's
 * known texts), otherwise the fallback the spec gives.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const message = (error.data as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return translateServerText(message);
  }
  return fallback;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}
