import sharp from 'sharp';
import type { Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from './factories.js';
import type { TestContext } from './test-app.js';

/**
 * A small team for authorisation and fuzz tests: two admins, two members, a member whose account
 * was deleted (their token is kept), a task for each member alone and one for both, and a stored
 * image. Every task has its own checklist texts, so an item can be told apart from another
 * task's item.
 */
export interface World {
  A1: Session;
  A2: Session;
  M1: Session;
  M2: Session;
  /** Signed up, then deleted by an admin: their id names nobody, their token is stale. */
  deleted: Session;
  /** Assigned to M1 only. */
  T1: Task;
  /** Assigned to M2 only. */
  T2: Task;
  /** Assigned to M1 and M2. */
  T12: Task;
  imageId: string;
}

let png: Promise<Buffer> | undefined;

/** A 2×2 PNG, made once. */
export function tinyPng(): Promise<Buffer> {
  png ??= sharp({
    create: { width: 2, height: 2, channels: 3, background: { r: 10, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  return png;
}

const checklist = (name: string) => [
  { text: `${name} draft`, completed: false },
  { text: `${name} review`, completed: false },
];

export async function buildWorld(ctx: TestContext): Promise<World> {
  const [A1, A2, M1, M2, deleted] = await Promise.all([
    signUp(ctx, 'admin', { name: 'Admin One' }),
    signUp(ctx, 'admin', { name: 'Admin Two' }),
    signUp(ctx, 'member', { name: 'Member One' }),
    signUp(ctx, 'member', { name: 'Member Two' }),
    signUp(ctx, 'member', { name: 'Gone Member' }),
  ]);
  await ctx.api.delete(`/api/users/${deleted.id}`).set(A1.auth).expect(200);
  const T1 = await createTask(ctx, A1, [M1.id], { todoChecklist: checklist('T1') });
  const T2 = await createTask(ctx, A2, [M2.id], { todoChecklist: checklist('T2') });
  const T12 = await createTask(ctx, A1, [M1.id, M2.id], { todoChecklist: checklist('T12') });
  const upload = await ctx.api
    .post('/api/auth/upload-image')
    .attach('image', await tinyPng(), 'pixel.png')
    .expect(200);
  const imageId = String(upload.body.imageUrl).split('/').pop()!;
  return { A1, A2, M1, M2, deleted, T1, T2, T12, imageId };
}
