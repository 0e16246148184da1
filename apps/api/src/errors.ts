import type { FieldError } from '@task-manager/shared';
import { apiMessages } from '@task-manager/shared';

/**
 * Stable, machine-readable names of errors, sent as `code` beside the message (which stays the
 * spec's text, for people). Most follow from the status; a few say more.
 */
export type ErrorCode =
  | (typeof STATUS_CODES)[keyof typeof STATUS_CODES]
  | 'wrong_current_password'
  | 'busy'
  | 'uploads_full'
  | 'file_too_large'
  | 'account_deactivated'
  | 'signup_invite_only'
  | 'invalid_invite'
  | 'invite_email_mismatch'
  | 'invalid_reset_token'
  | 'password_reset_unavailable';

/** The code of an error that says nothing more than its status. */
const STATUS_CODES = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  429: 'too_many_requests',
  431: 'headers_too_large',
  500: 'server_error',
  503: 'service_unavailable',
} as const;

/** The body of every error answer: `{message, code, errors?}`. */
export function errorBody(
  status: number,
  message: string,
  options: { code?: ErrorCode; errors?: FieldError[]; maxBytes?: number } = {},
) {
  const fallback = status >= 500 ? STATUS_CODES[500] : STATUS_CODES[400];
  const code = options.code ?? STATUS_CODES[status as keyof typeof STATUS_CODES] ?? fallback;
  return {
    message,
    code,
    ...(options.errors && { errors: options.errors }),
    ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
  };
}

/** An error with an HTTP status whose message is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
    readonly details: { code?: ErrorCode; retryAfterSeconds?: number; maxBytes?: number } = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const BadRequest = (message: string, errors?: FieldError[]) =>
  new HttpError(400, message, errors);
export const Unauthorized = (message: string = apiMessages.notAuthorized) =>
  new HttpError(401, message);
export const Forbidden = (message: string = apiMessages.adminOnly) => new HttpError(403, message);
export const NotFound = (message: string = apiMessages.notFound) => new HttpError(404, message);
export const Conflict = (message: string) => new HttpError(409, message);
/** A file over the limit: the message and `maxBytes` say how large one may be. */
export const FileTooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    `${apiMessages.fileTooLarge}: at most ${Math.floor(maxBytes / (1024 * 1024))} MB`,
    undefined,
    { code: 'file_too_large', maxBytes },
  );
/** The server is saturated for a moment: the client should retry after `retryAfterSeconds`. */
export const Busy = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, undefined, { code: 'busy', retryAfterSeconds });
