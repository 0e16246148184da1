import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code, so the link rule of
// packages/shared (normalizeWebLink, 2026-11-25) is copied here as it was.
//
// Attachment links are stored as absolute http(s) URLs from now on. Links stored before are
// rewritten to that form ("example.com/a" becomes "https://example.com/a"); the ones that are no
// web link at all ("javascript:1/alert(1)", "data:1/x,...", "//evil.example/x", which the old
// check let through as host:port or bare links) are deleted: opened from the task page they
// would run script or leave for a host nobody chose.

const SCHEME = /^([a-z][a-z0-9+.-]{0,31}):/i;
const HOST_PORT = /^(?:localhost|[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+):\d{1,5}(?:\/|$)/i;
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX = 2048;

function normalize(value: string): string | undefined {
  const link = value.trim();
  if (link.length === 0 || link.length > MAX || UNSAFE.test(link) || /\s/.test(link)) return;
  if (link.startsWith('/') || link.startsWith('\\')) return;
  const scheme = SCHEME.exec(link)?.[1]?.toLowerCase();
  const bare = scheme === undefined || HOST_PORT.test(link);
  if (!bare && scheme !== 'http' && scheme !== 'https') return;
  let url: URL;
  try {
    url = new URL(bare ? `https://${link}` : link);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  if (url.hostname.length === 0 || url.username !== '' || url.password !== '') return;
  return url.href.length <= MAX ? url.href : undefined;
}

const BATCH = 1000;

export async function up(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const rows: Array<{ id: string; url: string }> = await db
      .selectFrom('attachments')
      .select(['id', 'url'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const url = normalize(row.url);
      if (url === undefined) {
        await db.deleteFrom('attachments').where('id', '=', row.id).execute();
      } else if (url !== row.url) {
        await db.updateTable('attachments').set({ url }).where('id', '=', row.id).execute();
      }
    }
    if (rows.length < BATCH) return;
    after = rows.at(-1)!.id;
  }
}

// The old forms cannot be restored, and the new ones are valid for the old version too.
export async function down(): Promise<void> {}
