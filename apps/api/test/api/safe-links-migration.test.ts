import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import { seedMembers, seedTasks } from '../helpers/bulk-seed.js';
import { openDatabaseBefore } from '../helpers/databases.js';
import { tempDir } from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

/**
 * Migration 2026-11-25-002: links stored by older versions are rewritten as absolute http(s)
 * URLs, and the ones the old check let through that are no web link are deleted.
 */
describe(`stored attachment links are made safe (${ENGINE})`, { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('normalises the old links and deletes the unsafe ones', async () => {
    const opened = await openDatabaseBefore(tempDir(), '2026-11-25-002-safe-links');
    cleanups.push(opened.drop);
    const { db } = opened.handle;
    const [member] = await seedMembers(db, 1);
    const [task] = await seedTasks(db, {
      count: 1,
      createdBy: member!.id,
      assign: () => [member!.id],
    });
    const stored: Array<[string, string | undefined]> = [
      ['https://example.com/a?b=c', 'https://example.com/a?b=c'],
      ['example.com/doc.pdf', 'https://example.com/doc.pdf'],
      ['localhost:3000/x', 'https://localhost:3000/x'],
      ['HTTP://Example.com', 'http://example.com/'],
      ['javascript:1/alert(1)', undefined],
      ['data:1/x,<script>alert(1)</script>', undefined],
      ['vbscript:1/x', undefined],
      ['//evil.example/x', undefined],
    ];
    await db.deleteFrom('attachments').execute();
    await db
      .insertInto('attachments')
      .values(
        stored.map(([url], position) => ({ id: randomUUID(), task_id: task!.id, position, url })),
      )
      .execute();

    expect(await migrateToLatest(opened.handle)).toEqual(opened.applied);

    const rows = await db
      .selectFrom('attachments')
      .select('url')
      .where('task_id', '=', task!.id)
      .orderBy('position')
      .execute();
    expect(rows.map((row) => row.url)).toEqual(
      stored.map(([, url]) => url).filter((url) => url !== undefined),
    );
  });
});
