import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import { seedMembers } from '../helpers/bulk-seed.js';
import { openDatabaseBefore } from '../helpers/databases.js';
import { tempDir } from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

/**
 * Migration 2026-11-25-003: every image gets an owner. Stored photo links that point at one of
 * our images (whatever host the old upload answer named) become the relative path and claim the
 * image; every other link (the tracking links this closes) becomes null.
 */
describe(`stored photo links are rewritten (${ENGINE})`, { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('keeps links to our images as relative paths owned by their user, and drops the rest', async () => {
    const opened = await openDatabaseBefore(tempDir(), '2026-11-25-003-image-owners');
    cleanups.push(opened.drop);
    const { db } = opened.handle;
    const image = async () => {
      const id = randomUUID();
      await db
        .insertInto('images')
        .values({
          id,
          content_type: 'image/png',
          data: Buffer.from(`png ${id}`),
          byte_size: 40,
          width: 1,
          height: 1,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      return id;
    };
    const [a, b, c, d, unused] = [
      await image(),
      await image(),
      await image(),
      await image(),
      await image(),
    ];
    const shared = await image();
    const cases: Array<[string | null, 'own' | 'shared' | null, string | undefined]> = [
      // What older versions answered: this server's address as the Host header named it.
      [`http://localhost:8000/api/images/${a}`, 'own', a],
      [`https://tasks.example.com/api/images/${b.toUpperCase()}`, 'own', b],
      [`/api/images/${c}`, 'own', c],
      [`http://192.168.1.20:8000/api/images/${d}?v=2`, 'own', d],
      // Someone else's link, and one of our addresses for an image that is gone.
      ['https://tracker.example/pixel.png?member=42', null, undefined],
      [`http://localhost:8000/api/images/${randomUUID()}`, null, undefined],
      ['http://10.0.0.5/admin/reset', null, undefined],
      [`https://cdn.example/api/images/${a}/x.png`, null, undefined],
      ['javascript:alert(1)', null, undefined],
      [null, null, undefined],
      // Two users showing one image: one keeps it, the other gets a copy of their own.
      [`http://localhost:8000/api/images/${shared}`, 'shared', shared],
      [`/api/images/${shared}`, 'shared', shared],
    ];
    const members = await seedMembers(db, cases.length);
    for (const [index, [link]] of cases.entries()) {
      await db
        .updateTable('users')
        .set({ profile_image_url: link })
        .where('id', '=', members[index]!.id)
        .execute();
    }

    expect(await migrateToLatest(opened.handle)).toEqual(opened.applied);

    const users = await db
      .selectFrom('users')
      .select(['id', 'profile_image_url'])
      .where(
        'id',
        'in',
        members.map((member) => member.id),
      )
      .execute();
    const linkOf = new Map(users.map((user) => [user.id, user.profile_image_url]));
    const images = await db.selectFrom('images').select(['id', 'owner_id', 'data']).execute();
    const imageById = new Map(images.map((row) => [row.id, row]));
    const sharedIds = new Set<string>();
    for (const [index, [link, expected, original]] of cases.entries()) {
      const member = members[index]!;
      const stored = linkOf.get(member.id);
      if (expected === null) {
        expect(stored, `${link}`).toBeNull();
        continue;
      }
      expect(stored, `${link}`).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
      const id = stored!.slice('/api/images/'.length);
      const row = imageById.get(id)!;
      expect(row.owner_id, `${link}`).toBe(member.id);
      expect(Buffer.from(row.data).toString()).toBe(`png ${original}`);
      if (expected === 'own') expect(id).toBe(original);
      else sharedIds.add(id);
    }
    expect(sharedIds).toContain(shared);
    expect(sharedIds.size).toBe(2);
    // The image nobody showed waits, unclaimed, for the sweep; nothing else was created.
    expect(imageById.get(unused)!.owner_id).toBeNull();
    expect(images).toHaveLength(7);

    // Deleting a user deletes their photo, and only theirs.
    const first = members[0]!.id;
    await db.deleteFrom('users').where('id', '=', first).execute();
    const left = await db.selectFrom('images').select('id').execute();
    expect(left.map((row) => row.id)).not.toContain(a);
    expect(left).toHaveLength(images.length - 1);
  });
});
