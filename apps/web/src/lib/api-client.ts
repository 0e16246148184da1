import axios, { AxiosError } from 'axios';

export const TOKEN_KEY = 'token';
/** Spec section 9: every request gives up after 50 seconds. */
export const REQUEST_TIMEOUT_MS = 50_000;

/** One axios instance for every call: same origin, JSON, the stored token as a Bearer header. */
export const api = axios.create({
  baseURL: '/',
  timeout: REQUEST_TIMEOUT_MS,
  headers: { 'Content-Type': 'application/json' },
});

export function getStoredToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

api.interceptors.request.use((config) => {
  const token = getStoredToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

/**
 * A 401 from the sign-in and sign-up calls means wrong credentials and is shown under the form;
 * the session check at start-up handles its own 401. Any other 401 means the session is over.
 */
const CREDENTIAL_CALLS = ['/api/auth/login', '/api/auth/register', '/api/auth/profile'];

let onUnauthorized: (() => void) | null = null;

/** The session provider registers what "the session is over" does (clear it, go to /login). */
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}

api.interceptors.response.use(undefined, (error: unknown) => {
  if (error instanceof AxiosError) {
    const url = error.config?.url ?? '';
    const status = error.response?.status;
    if (status === 401 && !CREDENTIAL_CALLS.some((path) => url.startsWith(path))) {
      onUnauthorized?.();
    } else if (status !== undefined && status >= 500) {
      console.warn('server error. please try again later.');
    } else if (error.code === 'ECONNABORTED') {
      console.warn('Request timeout. please try again.');
    }
  }
  return Promise.reject(error);
});

/** The server's `{message}` when it sent one, otherwise the fallback the spec gives. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof AxiosError) {
    const message = (error.response?.data as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof AxiosError ? error.response?.status : undefined;
}
