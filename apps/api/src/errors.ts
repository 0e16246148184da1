import type { FieldError } from '@task-manager/shared';
import { apiMessages } from '@task-manager/shared';

/** Stable names for errors that code (not only people) must tell apart. */
export type ErrorCode = 'wrong_current_password' | 'busy';

/** An error with an HTTP status whose message is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
    readonly details: { code?: ErrorCode; retryAfterSeconds?: number } = {},
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
/** The server is saturated for a moment: the client should retry after `retryAfterSeconds`. */
export const Busy = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, message, undefined, { code: 'busy', retryAfterSeconds });
