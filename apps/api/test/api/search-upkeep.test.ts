import { afterAll, beforeAll, describe, expect } from 'vitest';
import { sql } from 'kysely';
import type { TaskListResponse } from '@task-manager/shared';
import {
  mergeSearchIndex,
  runSearchUpkeep,
  searchIndexSegments,
} from '../../src/scheduler/search-upkeep.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { onlyOn } from '../helpers/only-on.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const WORDS = ['budget', 'review', 'quarterly', 'onboarding', 'berlin', 'release', 'invoice'];

describe(`full-text index upkeep (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  /** Adds tasks, one request (one transaction) each, until the index holds several b-trees. */
  const fragment = async (title: string) => {
    for (let n = 0; (await searchIndexSegments(ctx.db)) < 2; n++) {
      expect(n).toBeLessThan(64);
      await createTask(ctx, admin, [member.id], { title: `${title} ${n}` });
    }
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    // One task per request, each its own transaction: each adds a b-tree to SQLite's index.
    for (let n = 0; n < 40; n++) {
      await createTask(ctx, admin, [member.id], {
        title: `${WORDS[n % WORDS.length]} task ${n}`,
        description: `${WORDS[(n * 3) % WORDS.length]} notes`,
        todoChecklist: [{ text: `${WORDS[(n * 5) % WORDS.length]} step` }],
      });
    }
  });
  afterAll(() => ctx.close());

  /** Every word's matches, each with its status summary, as the API answers them. */
  const answers = async () => {
    const found: Record<string, { ids: string[]; all: number }> = {};
    for (const q of [...WORDS, 'bud', 'quart onboard', 'task']) {
      const body = (await ctx.api.get('/api/tasks').query({ q }).set(admin.auth).expect(200))
        .body as TaskListResponse;
      found[q] = { ids: body.tasks.map((task) => task._id), all: body.statusSummary.all };
    }
    return found;
  };

  onlyOn('sqlite', 'SQLite keeps its full-text index in FTS5 b-trees').it(
    'merges the b-trees into one, a step at a time, and every search answers the same',
    async () => {
      await fragment('budget extra');
      const before = await answers();
      const segments = await searchIndexSegments(ctx.db);
      expect(segments).toBeGreaterThan(1);

      // Small steps, so that the merge takes several statements.
      const run = await mergeSearchIndex(ctx.db, { stepPages: 1 });
      expect(run).toEqual({ segmentsBefore: segments, segmentsAfter: 1, steps: run!.steps });
      expect(run!.steps).toBeGreaterThanOrEqual(1);
      expect(await searchIndexSegments(ctx.db)).toBe(1);
      await sql`insert into task_search (task_search, rank) values ('integrity-check', 1)`.execute(
        ctx.db,
      );
      expect(await answers()).toEqual(before);
      expect(before.budget!.all).toBeGreaterThan(0);

      // Nothing to merge: no statement runs.
      expect(await mergeSearchIndex(ctx.db)).toEqual({
        segmentsBefore: 1,
        segmentsAfter: 1,
        steps: 0,
      });
    },
  );

  onlyOn('sqlite', 'SQLite keeps its full-text index in FTS5 b-trees').it(
    'runs from the scheduler at most once an hour, in one process',
    async () => {
      await fragment('review after the merge');
      const at = new Date('2030-01-01T10:00:00Z');
      const first = await runSearchUpkeep(ctx.db, 'process-a', at);
      expect(first?.segmentsAfter).toBe(1);
      await createTask(ctx, admin, [member.id], { title: 'budget once more' });
      await fragment('invoice');
      const soon = await runSearchUpkeep(ctx.db, 'process-b', new Date(at.getTime() + 30 * 60_000));
      expect(soon).toBeNull();
      expect(await searchIndexSegments(ctx.db)).toBeGreaterThan(1);
      const later = await runSearchUpkeep(
        ctx.db,
        'process-b',
        new Date(at.getTime() + 61 * 60_000),
      );
      expect(later).toMatchObject({ segmentsAfter: 1 });
      const found = (
        await ctx.api.get('/api/tasks').query({ q: 'budget once' }).set(admin.auth).expect(200)
      ).body as TaskListResponse;
      expect(found.tasks.map((task) => task.title)).toEqual(['budget once more']);
    },
  );

  onlyOn('postgres', 'PostgreSQL’s GIN index needs no upkeep').it(
    'does nothing on PostgreSQL',
    async () => {
      expect(await mergeSearchIndex(ctx.db)).toBeNull();
      expect(
        await runSearchUpkeep(ctx.db, 'process-a', new Date('2030-01-01T10:00:00Z')),
      ).toBeNull();
    },
  );
});
