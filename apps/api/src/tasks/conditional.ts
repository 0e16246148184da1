import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { RequestUser } from '../http/request-user.js';

/**
 * Conditional GETs of task lists, tasks and dashboards (issue 19): their ETags carry the data
 * version (one row, moved by triggers on every write to what they show: migration
 * 2026-11-27-301), so a refetch of an unchanged answer costs one single-row read and a 304.
 *
 * The version comes from readDataVersion (repository.ts). Read it BEFORE the data the answer
 * shows: the answer is then at least as new as its tag, and a tag is never paired with an answer
 * older than it. (A write committed in between gives the answer a tag already out of date: the
 * next request is simply answered in full.)
 */

/**
 * A weak ETag for an answer made from the data at `version` for `user` (their id and role decide
 * what they see) and `key` (the path and query string); `extra` holds whatever else the answer
 * depends on (a dashboard's overdue count, which moves with the clock).
 */
export function versionETag(
  version: number,
  user: RequestUser,
  key: string,
  extra: string | number = '',
): string {
  const digest = createHash('sha1')
    .update(`${user.id}\n${user.role}\n${key}\n${extra}`)
    .digest('base64url')
    .slice(0, 16);
  return `W/"${version}-${digest}"`;
}

/** The opaque part of an entity tag: without W/ and the quotes (the weak comparison). */
function opaque(tag: string): string {
  return tag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

/**
 * Sends the validator (`etag`, and `Cache-Control: private, no-cache`: a browser may keep the
 * answer but asks again each time). True, with a 304 sent, when the request's If-None-Match
 * names it.
 */
export function answeredNotModified(req: Request, res: Response, etag: string): boolean {
  res.set('ETag', etag);
  res.set('Cache-Control', 'private, no-cache');
  const ifNoneMatch = req.get('If-None-Match');
  if (ifNoneMatch === undefined) return false;
  const wanted = opaque(etag);
  const matches = ifNoneMatch
    .split(',')
    .some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
  if (!matches) return false;
  res.status(304).end();
  return true;
}
