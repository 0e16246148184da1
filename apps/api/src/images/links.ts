import type { Request } from 'express';
import { IMAGE_PATH_PREFIX, parseImageLink, validationMessages } from '@task-manager/shared';
import { BadRequest } from '../errors.js';

/**
 * Where GET /api/images/:id serves an image: the relative path every answer gives, and the only
 * form a photo link is stored in. Relative, so no answer is built from the Host header.
 */
export function imagePath(id: string): string {
  return `${IMAGE_PATH_PREFIX}${id}`;
}

/** The image id of a stored path; undefined for anything else. */
export function imageIdOf(path: string): string | undefined {
  const link = parseImageLink(path);
  return link && link.host === undefined ? link.id : undefined;
}

const invalidImageLink = () =>
  BadRequest(validationMessages.invalidImageUrl, [
    { path: 'profileImageUrl', message: validationMessages.invalidImageUrl },
  ]);

/**
 * The stored form of a photo link: its relative path, `/api/images/<id>`, or null (no photo).
 * An absolute link is accepted only when `ownHost` is given and is the host it names.
 */
export function storedImagePath(value: string | null, ownHost?: string): string | null {
  if (value === null) return null;
  const link = parseImageLink(value);
  if (!link || (link.host !== undefined && link.host !== ownHost)) throw invalidImageLink();
  return imagePath(link.id);
}

/**
 * The host (and port) the request was sent to, as Express reads it (X-Forwarded-Host only from a
 * trusted proxy, see TRUST_PROXY), in the form URL.host has: lower case, no default port.
 */
export function requestHost(req: Request): string | undefined {
  if (!req.host) return undefined;
  try {
    return new URL(`${req.protocol}://${req.host}`).host;
  } catch {
    return undefined;
  }
}

/**
 * The input with its photo link in stored form: a link to this server's image, relative or
 * absolute with the host this request was sent to (what an older upload answer gave). Any
 * other host is refused (400), like any other link.
 */
export function withStoredImagePath<T extends { profileImageUrl?: string | null }>(
  input: T,
  req: Request,
): T {
  if (input.profileImageUrl === undefined) return input;
  return { ...input, profileImageUrl: storedImagePath(input.profileImageUrl, requestHost(req)) };
}
