import { z } from 'zod';
import { validationMessages as m } from '../messages.js';

/** E-mail as the spec defines it: no whitespace, an @, then a domain part containing a dot. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const idSchema = z.uuid({ error: m.invalidId });
export const isoDateTime = z.iso.datetime({ offset: true });

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * A link a person may click: http(s), or a bare host/path that the client opens as https://
 * (spec section 2, task details). Any other scheme (javascript:, data:, vbscript:, file:) is
 * refused, so stored links can never run script.
 */
export function isSafeWebLink(value: string): boolean {
  if (/\s/.test(value)) return false;
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  // "localhost:3000" parses as a scheme; treat host:port as a bare link.
  const bareHostPort = scheme !== undefined && /^[a-z0-9.-]+:\d+(\/|$)/i.test(value);
  if (scheme !== undefined && !bareHostPort && scheme !== 'http' && scheme !== 'https')
    return false;
  try {
    const url = new URL(scheme === undefined || bareHostPort ? `https://${value}` : value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL (profile photos are loaded by the browser as <img src>). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Optional profile image: '' and null both mean "no photo" (null); left out, it stays undefined
 * so that an update leaves the current photo alone.
 */
export const profileImageUrlSchema = z
  .union([z.string({ error: m.invalidImageUrl }), z.null()], { error: m.invalidImageUrl })
  .transform((value) => (value == null || value.trim() === '' ? null : value.trim()))
  .refine((value) => value === null || (value.length <= 2048 && isHttpUrl(value)), {
    error: m.invalidImageUrl,
  })
  .optional();

export const emailSchema = z
  .string({ error: m.invalidEmail })
  .trim()
  .toLowerCase()
  .max(254, { error: m.invalidEmail })
  .regex(EMAIL_PATTERN, { error: m.invalidEmail });

/** A new password: 8 to 128 characters. */
export const newPasswordSchema = z
  .string({ error: m.passwordRequired })
  .min(1, { error: m.passwordRequired })
  .min(8, { error: m.passwordTooShort })
  .max(128, { error: m.passwordTooLong });

export const nameSchema = z
  .string({ error: m.invalidFullName })
  .trim()
  .min(1, { error: m.invalidFullName })
  .max(100, { error: m.nameTooLong });

export const roleSchema = z.enum(['admin', 'member'], { error: m.invalidRole });
export type Role = z.infer<typeof roleSchema>;

/**
 * For partial updates: true when at least one field other than `ignored` was sent (null counts,
 * it clears). Unknown keys are already stripped, so every field of the schema counts by itself.
 */
export function sendsAnyField(ignored: readonly string[] = []) {
  return (value: Record<string, unknown>) =>
    Object.entries(value).some(([key, field]) => field !== undefined && !ignored.includes(key));
}
