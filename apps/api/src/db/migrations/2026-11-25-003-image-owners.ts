import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code, so the image-link rule of
// packages/shared (parseImageLink, 2026-11-25) is copied here as it was, more lenient on purpose
// (any host, a query or fragment ignored: they are old data, not a new choice).
//
// Every image gets an owner: the user whose profile photo it is (null: an upload nobody uses
// yet, which the sweep deletes after its grace period). A user's photo is one of our images,
// stored as the relative path "/api/images/<id>", owned by that user and by no one else.
//
// Stored photo links are rewritten to that rule: a link to one of our images (any host, the
// path /api/images/<id> of an image that exists) becomes the relative path and claims the
// image; any other link (another server's address, an image that is gone) becomes null. Those
// are the links that made every viewer's browser call an address of the member's choosing.
// Two users that showed the same image each get their own copy, so that one changing or
// deleting their photo never takes the other's.
//
// owner_id references users with ON DELETE CASCADE: deleting a user deletes their photo.
// SQLite can add a column with a REFERENCES clause since its default is NULL.

const IMAGE_PATH =
  /^\/api\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const MAX = 2048;

function imageIdOf(link: string): string | undefined {
  const value = link.trim();
  if (value.length === 0 || value.length > MAX) return;
  const relative = IMAGE_PATH.exec(value);
  if (relative) return relative[1]!.toLowerCase();
  if (!/^https?:\/\//i.test(value)) return;
  try {
    return IMAGE_PATH.exec(new URL(value).pathname)?.[1]?.toLowerCase();
  } catch {
    return;
  }
}

const BATCH = 1000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('images')
    .addColumn('owner_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
    .execute();
  // Serves the unclaimed total (owner_id is null: byte_size from the index alone), the sweep
  // (owner_id is null and created_at before the cutoff) and the cascade on user deletion.
  await db.schema
    .createIndex('images_owner_created_idx')
    .on('images')
    .columns(['owner_id', 'created_at', 'byte_size'])
    .execute();

  let after = '';
  for (;;) {
    const users: Array<{ id: string; profile_image_url: string }> = await db
      .selectFrom('users')
      .select(['id', 'profile_image_url'])
      .where('id', '>', after)
      .where('profile_image_url', 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const user of users) {
      const id = imageIdOf(user.profile_image_url);
      const image: { owner_id: string | null } | undefined = id
        ? await db.selectFrom('images').select('owner_id').where('id', '=', id).executeTakeFirst()
        : undefined;
      let photo: string | null = null;
      if (id && image && image.owner_id === null) {
        await db.updateTable('images').set({ owner_id: user.id }).where('id', '=', id).execute();
        photo = id;
      } else if (id && image) {
        // Another user already showed this image: this one gets a copy of their own.
        photo = randomUUID();
        await sql`insert into images
            (id, content_type, data, byte_size, width, height, created_at, owner_id)
          select ${photo}, content_type, data, byte_size, width, height, created_at, ${user.id}
          from images where id = ${id}`.execute(db);
      }
      const url = photo === null ? null : `/api/images/${photo}`;
      if (url !== user.profile_image_url) {
        await db
          .updateTable('users')
          .set({ profile_image_url: url })
          .where('id', '=', user.id)
          .execute();
      }
    }
    if (users.length < BATCH) return;
    after = users.at(-1)!.id;
  }
}

// The relative links are valid for the old version too; the links set to null cannot return.
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('images_owner_created_idx').ifExists().execute();
  await db.schema.alterTable('images').dropColumn('owner_id').execute();
}
