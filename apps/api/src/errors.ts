import type { FieldError } from '@task-manager/shared';
import { apiMessages } from '@task-manager/shared';

/** An error with an HTTP status whose message is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
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
