import { z } from 'zod';
import { validationMessages as m } from '../messages.js';

export const idSchema = z.uuid({ error: m.invalidId });
export const isoDateTime = z.iso.datetime({ offset: true });

/**
 * What no stored text may hold: C0 control characters other than tab, LF and CR; the
 * noncharacters U+FFFE and U+FFFF; and UTF-16 surrogates without their pair. XML 1.0 (so every
 * spreadsheet export) cannot carry them, terminals act on them, and PostgreSQL refuses NUL.
 * Each alternative matches one or two code units with no repetition, so a scan is linear.
 */
const UNSAFE_CHARACTER =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, 'g');

/** True when `value` holds none of the characters stored text may not hold (see above). */
export function isSafeText(value: string): boolean {
  return !UNSAFE_CHARACTER.test(value);
}

/** `value` with each character stored text may not hold replaced by U+FFFD (for older data). */
export function replaceUnsafeCharacters(value: string): string {
  return value.replace(UNSAFE_CHARACTERS, '\uFFFD');
}

/**
 * A text field. Its length is checked first, on the text as sent and with `abort`, so an
 * over-long value is refused before anything else looks at it (no pattern ever runs over 100 KB
 * of input); then it is trimmed (unless `trim: false`), checked for a minimum length, and for
 * the characters no stored text may hold.
 */
export function textSchema(options: {
  max: number;
  tooLong: string;
  /** Message for a missing, non-string or (once trimmed) empty value; without it '' is valid. */
  required?: string;
  /** At least this many characters, else `tooShort`. */
  min?: number;
  tooShort?: string;
  trim?: boolean;
}) {
  const { max, tooLong, required, min, tooShort, trim = true } = options;
  let schema = z.string({ error: required ?? tooLong }).max(max, { error: tooLong, abort: true });
  if (trim) schema = schema.trim();
  if (required !== undefined) schema = schema.min(1, { error: required, abort: true });
  if (min !== undefined) schema = schema.min(min, { error: tooShort ?? tooLong, abort: true });
  return schema.refine(isSafeText, { error: m.unsafeCharacters, abort: true });
}

/**
 * E-mail as the spec defines it (no whitespace, one @, then a domain part holding a dot that is
 * neither its first nor its last character), checked without a backtracking pattern: the spec's
 * /^[^\s@]+@[^\s@]+\.[^\s@]+$/ takes quadratic time on "a@" followed by many dots.
 */
export function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@') || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes('.');
}

const SCHEME = /^([a-z][a-z0-9+.-]{0,31}):/i;
/** "host:port" or "host:port/path": what SCHEME would read as a scheme, but is a bare link. */
const HOST_PORT = /^(?:localhost|[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+):\d{1,5}(?:\/|$)/i;
export const MAX_LINK_LENGTH = 2048;

/**
 * A link a person may click, as the absolute http(s) URL to store; undefined when it is none.
 * A bare host and path ("example.com/doc", "localhost:3000/x") is read as https:// (spec
 * section 2, task details). Refused: every other scheme (javascript:, data:, vbscript:, file:,
 * also in their "scheme:1/x" forms that look like host:port), protocol-relative and other
 * relative links ("//evil.example/x", "/x", "\\host"), whitespace and control characters,
 * credentials ("https://user:pass@host"), and more than 2,048 characters before or after
 * normalising.
 */
export function normalizeWebLink(value: string): string | undefined {
  if (value.length > MAX_LINK_LENGTH || !isSafeText(value) || /\s/.test(value)) return undefined;
  if (value.startsWith('/') || value.startsWith('\\')) return undefined;
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  const bare = scheme === undefined || HOST_PORT.test(value);
  if (!bare && scheme !== 'http' && scheme !== 'https') return undefined;
  let url: URL;
  try {
    url = new URL(bare ? `https://${value}` : value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.hostname.length === 0 || url.username !== '' || url.password !== '') return undefined;
  return url.href.length <= MAX_LINK_LENGTH ? url.href : undefined;
}

/** True when `value` is a link a person may click (see normalizeWebLink). */
export function isSafeWebLink(value: string): boolean {
  return normalizeWebLink(value) !== undefined;
}

/** Where this server serves a stored image: '/api/images/' and the image's id. */
export const IMAGE_PATH_PREFIX = '/api/images/';
const IMAGE_PATH =
  /^\/api\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** Printable ASCII only: no whitespace or control characters that URL parsing would drop. */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** An image of this server, read from a link: its id, and the host an absolute link names. */
export interface ImageLink {
  id: string;
  /** The host (and port) of an absolute link, which the server compares with its own. */
  host?: string;
}

/**
 * Reads a link to one of this server's images: the relative path `/api/images/<uuid>`, or an
 * absolute http(s) URL whose path is exactly that (no query, fragment or credentials). Anything
 * else (another path, javascript:, data:, protocol-relative "//host/...") is undefined. Whether
 * an absolute link's host is this server's only the server can tell.
 */
export function parseImageLink(value: string): ImageLink | undefined {
  if (value.length > MAX_LINK_LENGTH || !PRINTABLE_ASCII.test(value)) return undefined;
  const relative = IMAGE_PATH.exec(value);
  if (relative) return { id: relative[1]!.toLowerCase() };
  if (!/^https?:\/\//i.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return undefined;
  }
  const absolute = IMAGE_PATH.exec(url.pathname);
  if (!absolute || url.hostname.length === 0) return undefined;
  return { id: absolute[1]!.toLowerCase(), host: url.host };
}

/**
 * Optional profile image: '' and null both mean "no photo" (null); left out, it stays undefined
 * so that an update leaves the current photo alone. Only images uploaded to this server are
 * accepted (see parseImageLink); the server then checks the host of an absolute link, that the
 * image exists and that no other account uses it, and stores the relative path.
 */
export const profileImageUrlSchema = z
  .string({ error: m.invalidImageUrl })
  .max(MAX_LINK_LENGTH, { error: m.invalidImageUrl, abort: true })
  .nullable()
  .transform((value) => (value == null || value.trim() === '' ? null : value.trim()))
  .refine((value) => value === null || parseImageLink(value) !== undefined, {
    error: m.invalidImageUrl,
  })
  .optional()
  .meta({
    description:
      'A photo uploaded to this server: `/api/images/<id>` as the upload answered it (an absolute ' +
      'URL of this server is accepted too and stored as that path); null or empty: no photo',
  });

/** An e-mail address, trimmed and in lower case; at most 254 characters (RFC 5321). */
export const emailSchema = z
  .string({ error: m.invalidEmail })
  .max(254, { error: m.invalidEmail, abort: true })
  .trim()
  .toLowerCase()
  .refine(isEmail, { error: m.invalidEmail, abort: true })
  .refine(isSafeText, { error: m.invalidEmail });

/**
 * Why a new password is too easy to guess, or undefined when it is not: one character repeated
 * (eight spaces, "aaaaaaaa"), only whitespace, or the account's own e-mail address, the part of
 * it before the @, or its name (case and spaces aside). The list of common passwords is checked
 * by the API, which holds it (too large for the web app to download).
 */
export function passwordWeakness(
  password: string,
  account: { email?: string; name?: string } = {},
): string | undefined {
  if (password.trim() === '') return m.passwordBlank;
  const [first, ...rest] = password;
  if (rest.every((char) => char === first)) return m.passwordOneCharacter;
  const plain = (text: string) => text.toLowerCase().replace(/\s+/g, '');
  const typed = plain(password);
  const email = account.email?.toLowerCase();
  const likeAccount = [email, email?.split('@')[0], account.name]
    .filter((text): text is string => !!text && text.trim() !== '')
    .some((text) => plain(text) === typed);
  return likeAccount ? m.passwordLikeAccount : undefined;
}

/** A new password: 8 to 128 characters, not one that passwordWeakness finds too easy to guess. */
export const newPasswordSchema = textSchema({
  max: 128,
  tooLong: m.passwordTooLong,
  required: m.passwordRequired,
  min: 8,
  tooShort: m.passwordTooShort,
  trim: false,
}).superRefine((password, ctx) => {
  const weakness = passwordWeakness(password);
  if (weakness) ctx.addIssue({ code: 'custom', message: weakness });
});

/**
 * For the schemas that take a new password with the account's e-mail and name: refuses a
 * password that is the account's own e-mail address or name.
 */
export function refusePasswordLikeAccount(value: {
  password?: string;
  email?: string;
  name?: string;
}) {
  return !value.password || passwordWeakness(value.password, value) === undefined;
}

export const nameSchema = textSchema({
  max: 100,
  tooLong: m.nameTooLong,
  required: m.invalidFullName,
});

export const roleSchema = z.enum(['admin', 'member'], { error: m.invalidRole });
export type Role = z.infer<typeof roleSchema>;

/** The languages the app and its e-mails speak, English (the spec's) the default. */
export const LANGUAGES = ['en', 'de'] as const;
export const languageSchema = z.enum(LANGUAGES, { error: m.invalidLanguage });
export type Language = z.infer<typeof languageSchema>;

/**
 * For partial updates: true when at least one field other than `ignored` was sent (null counts,
 * it clears). Unknown keys are already stripped, so every field of the schema counts by itself.
 */
export function sendsAnyField(ignored: readonly string[] = []) {
  return (value: Record<string, unknown>) =>
    Object.entries(value).some(([key, field]) => field !== undefined && !ignored.includes(key));
}
