import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages, type Task } from '@task-manager/shared';
import { buildUser, createTask, signUp, uploadPhoto, type Session } from '../helpers/factories.js';
import { expectNoSecrets, publicUserOf } from '../helpers/expectations.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const USER_KEYS = [
  '_id',
  'active',
  'createdAt',
  'email',
  'name',
  'profileImageUrl',
  'role',
  'updatedAt',
];
const LIST_KEYS = [...USER_KEYS, 'completedTasks', 'inProgressTasks', 'pendingTasks'].sort();
const notAuthorized = { message: apiMessages.notAuthorized, code: 'unauthorized' };
const adminOnly = { message: apiMessages.adminOnly, code: 'forbidden' };
const userNotFound = { message: apiMessages.userNotFound, code: 'not_found' };
const lastAdmin = { message: apiMessages.lastAdmin, code: 'conflict' };

interface ListedUser {
  _id: string;
  role: string;
  pendingTasks: number;
  inProgressTasks: number;
  completedTasks: number;
}

describe(`users API (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const login = (email: string, password: string) =>
    ctx.api.post('/api/auth/login').send({ email, password });

  async function listUsers(session: Session = admin): Promise<ListedUser[]> {
    const res = await ctx.api.get('/api/users').set(session.auth).expect(200);
    return res.body;
  }

  async function countsOf(id: string) {
    const found = (await listUsers()).find((user) => user._id === id);
    expect(found).toBeDefined();
    const { pendingTasks, inProgressTasks, completedTasks } = found!;
    return { pendingTasks, inProgressTasks, completedTasks };
  }

  async function getTask(id: string): Promise<Task> {
    const res = await ctx.api.get(`/api/tasks/${id}`).set(admin.auth).expect(200);
    return res.body;
  }

  describe('access', () => {
    it('refuses every user route without a token', async () => {
      const id = member.id;
      const calls = [
        ctx.api.get('/api/users'),
        ctx.api.get(`/api/users/${id}`),
        ctx.api.post('/api/users').send(buildUser()),
        ctx.api.put(`/api/users/${id}`).send({ name: 'Anonymous Edit' }),
        ctx.api.delete(`/api/users/${id}`),
      ];
      for (const call of calls) {
        const res = await call.expect(401);
        expect(res.body).toEqual(notAuthorized);
      }
      await ctx.api.get(`/api/users/${id}`).set(member.auth).expect(200);
    });

    it('refuses members on the admin-only routes with 403, changing nothing', async () => {
      const other = await signUp(ctx);
      const created = buildUser();
      const calls = [
        ctx.api.get('/api/users').set(member.auth),
        ctx.api.post('/api/users').set(member.auth).send(created),
        ctx.api.put(`/api/users/${other.id}`).set(member.auth).send({ name: 'Hijacked' }),
        ctx.api.put(`/api/users/${member.id}`).set(member.auth).send({ role: 'admin' }),
        ctx.api.delete(`/api/users/${other.id}`).set(member.auth),
      ];
      for (const call of calls) {
        const res = await call.expect(403);
        expect(res.body).toEqual(adminOnly);
      }
      await login(created.email, created.password).expect(401);
      const still = await ctx.api.get(`/api/users/${other.id}`).set(admin.auth).expect(200);
      expect(still.body.name).toBe(other.user.name);
      const self = await ctx.api.get(`/api/users/${member.id}`).set(admin.auth).expect(200);
      expect(self.body.role).toBe('member');
    });
  });

  describe('GET /api/users', () => {
    it('lists every person, admins included, with their fields and no secrets', async () => {
      const pictured = await signUp(ctx, 'member', {
        profileImageUrl: await uploadPhoto(ctx),
      });
      const secondAdmin = await signUp(ctx, 'admin');
      const users = await listUsers();
      const ids = users.map((user) => user._id);
      expect(ids).toContain(member.id);
      expect(ids).toContain(pictured.id);
      expect(ids).toContain(admin.id);
      expect(ids).toContain(secondAdmin.id);
      for (const user of users) {
        expect(Object.keys(user).sort()).toEqual(LIST_KEYS);
      }
      const members = await ctx.api.get('/api/users?role=member').set(admin.auth).expect(200);
      expect(members.body.map((user: ListedUser) => user.role)).not.toContain('admin');
      expectNoSecrets(users, { noTokens: true });
      const listed = users.find((user) => user._id === pictured.id);
      const profile = publicUserOf(pictured.user);
      expect(listed).toEqual({
        ...profile,
        pendingTasks: 0,
        inProgressTasks: 0,
        completedTasks: 0,
      });
    });

    it('counts each member’s tasks by status as they move', async () => {
      const alice = await signUp(ctx);
      const bob = await signUp(ctx);
      const idle = await signUp(ctx);
      const pending = await createTask(ctx, admin, [alice.id, bob.id]);
      const progressing = await createTask(ctx, admin, [alice.id]);
      const doneByStatus = await createTask(ctx, admin, [alice.id, bob.id]);
      const doneByChecklist = await createTask(ctx, admin, [alice.id]);
      const notTheirs = await createTask(ctx, admin, [idle.id]);
      expect(await countsOf(alice.id)).toEqual({
        pendingTasks: 4,
        inProgressTasks: 0,
        completedTasks: 0,
      });

      // One of two items ticked: In Progress.
      await ctx.api
        .put(`/api/tasks/${progressing._id}/todo`)
        .set(alice.auth)
        .send({
          todoChecklist: [
            { text: 'Draft', completed: true },
            { text: 'Review', completed: false },
          ],
        })
        .expect(200);
      await ctx.api
        .put(`/api/tasks/${doneByStatus._id}/status`)
        .set(admin.auth)
        .send({ status: 'Completed' })
        .expect(200);
      await ctx.api
        .put(`/api/tasks/${doneByChecklist._id}/todo`)
        .set(alice.auth)
        .send({
          todoChecklist: [
            { text: 'Draft', completed: true },
            { text: 'Review', completed: true },
          ],
        })
        .expect(200);
      expect((await getTask(progressing._id)).status).toBe('In Progress');
      expect((await getTask(doneByChecklist._id)).status).toBe('Completed');

      expect(await countsOf(alice.id)).toEqual({
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 2,
      });
      expect(await countsOf(bob.id)).toEqual({
        pendingTasks: 1,
        inProgressTasks: 0,
        completedTasks: 1,
      });
      expect(await countsOf(idle.id)).toEqual({
        pendingTasks: 1,
        inProgressTasks: 0,
        completedTasks: 0,
      });

      // Back to Pending, and a deleted task no longer counts.
      await ctx.api
        .put(`/api/tasks/${doneByStatus._id}/status`)
        .set(admin.auth)
        .send({ status: 'Pending' })
        .expect(200);
      await ctx.api.delete(`/api/tasks/${pending._id}`).set(admin.auth).expect(200);
      await ctx.api.delete(`/api/tasks/${notTheirs._id}`).set(admin.auth).expect(200);
      expect(await countsOf(alice.id)).toEqual({
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 1,
      });
      expect(await countsOf(bob.id)).toEqual({
        pendingTasks: 1,
        inProgressTasks: 0,
        completedTasks: 0,
      });
      expect(await countsOf(idle.id)).toEqual({
        pendingTasks: 0,
        inProgressTasks: 0,
        completedTasks: 0,
      });
    });

    it('accepts a trailing slash', async () => {
      const res = await ctx.api.get('/api/users/').set(admin.auth).expect(200);
      expect(res.body.map((user: ListedUser) => user._id)).toContain(member.id);
    });
  });

  describe('GET /api/users/:id', () => {
    it('lets an admin read anyone, admins included', async () => {
      for (const session of [member, admin]) {
        const res = await ctx.api.get(`/api/users/${session.id}`).set(admin.auth).expect(200);
        const user = publicUserOf(session.user);
        expect(res.body).toMatchObject({ ...user, updatedAt: expect.any(String) });
        expect(Object.keys(res.body).sort()).toEqual([...USER_KEYS].sort());
        expectNoSecrets(res.body, { noTokens: true });
      }
    });

    it('lets a member read themself only', async () => {
      const self = await ctx.api.get(`/api/users/${member.id}/`).set(member.auth).expect(200);
      expect(self.body._id).toBe(member.id);
      const other = await signUp(ctx);
      for (const id of [other.id, admin.id]) {
        const res = await ctx.api.get(`/api/users/${id}`).set(member.auth).expect(403);
        expect(res.body).toEqual(adminOnly);
      }
    });

    it('answers 404 with a JSON message for an unknown or malformed id', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', '12345', "1' or '1'='1", '%E2%9C%93']) {
        const res = await ctx.api.get(`/api/users/${id}`).set(admin.auth).expect(404);
        expect(res.body).toEqual(userNotFound);
      }
    });
  });

  describe('POST /api/users', () => {
    it('creates a member by default: 201, the user without secrets, who can sign in', async () => {
      const body = buildUser({ email: `  NEW-${Date.now()}@Example.COM ` });
      const res = await ctx.api.post('/api/users').set(admin.auth).send(body).expect(201);
      expect(Object.keys(res.body).sort()).toEqual([...USER_KEYS].sort());
      expect(res.body).toMatchObject({
        name: body.name,
        email: body.email.trim().toLowerCase(),
        role: 'member',
        profileImageUrl: null,
      });
      expectNoSecrets(res.body, { noTokens: true });
      const session = await login(res.body.email, body.password).expect(200);
      expect(session.body).toMatchObject({ _id: res.body._id, role: 'member' });
      expect((await listUsers()).map((user) => user._id)).toContain(res.body._id);
    });

    it('creates an admin when asked, who can use admin routes', async () => {
      const photo = await uploadPhoto(ctx);
      const body = buildUser({ role: 'admin', profileImageUrl: photo });
      const res = await ctx.api.post('/api/users/').set(admin.auth).send(body).expect(201);
      expect(res.body).toMatchObject({
        role: 'admin',
        profileImageUrl: photo,
      });
      const session = await login(body.email, body.password).expect(200);
      await ctx.api
        .get('/api/users')
        .set({ Authorization: `Bearer ${session.body.token}` })
        .expect(200);
    });

    it('refuses a taken e-mail with 409, whatever its case', async () => {
      for (const email of [member.email, member.email.toUpperCase()]) {
        const res = await ctx.api
          .post('/api/users')
          .set(admin.auth)
          .send(buildUser({ email }))
          .expect(409);
        expect(res.body).toEqual({ message: apiMessages.userExists, code: expect.any(String) });
      }
      await login(member.email, member.password).expect(200);
    });

    it('validates every field', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ name: '  ' }, 'name', validationMessages.invalidFullName],
        [{ email: 'nope' }, 'email', validationMessages.invalidEmail],
        [{ password: undefined }, 'password', validationMessages.passwordRequired],
        [{ password: 'short' }, 'password', validationMessages.passwordTooShort],
        [{ password: 'p'.repeat(129) }, 'password', validationMessages.passwordTooLong],
        [{ role: 'owner' }, 'role', validationMessages.invalidRole],
        [
          { profileImageUrl: 'javascript:alert(1)' },
          'profileImageUrl',
          validationMessages.invalidImageUrl,
        ],
      ];
      for (const [override, path, message] of cases) {
        const body = buildUser(override);
        const res = await ctx.api.post('/api/users').set(admin.auth).send(body).expect(400);
        expect(res.body.message).toBe(message);
        expect(res.body.errors).toEqual([{ path, message }]);
        const stored = await ctx.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', String(body.email).toLowerCase())
          .executeTakeFirst();
        expect(stored).toBeUndefined();
      }
    });
  });

  describe('PUT /api/users/:id', () => {
    const edit = (id: string, body: Record<string, unknown>) =>
      ctx.api.put(`/api/users/${id}`).set(admin.auth).send(body);

    it("refuses an admin's own password here: that needs the profile and the current password", async () => {
      const self = await signUp(ctx, 'admin');
      const res = await ctx.api
        .put(`/api/users/${self.id}`)
        .set(self.auth)
        .send({ password: 'a-brand-new-password' })
        .expect(400);
      expect(res.body).toMatchObject({ message: apiMessages.ownPasswordViaProfile });
      // Nothing changed: the old password still signs in and the session still works.
      await login(self.email, self.password).expect(200);
      await ctx.api.get('/api/auth/profile').set(self.auth).expect(200);
      // Other fields of one's own account may be edited here.
      const renamed = await ctx.api
        .put(`/api/users/${self.id}`)
        .set(self.auth)
        .send({ name: 'Self Renamed' })
        .expect(200);
      expect(renamed.body.name).toBe('Self Renamed');
    });

    it('changes name, e-mail and photo; the e-mail is normalised and signs in', async () => {
      const target = await signUp(ctx);
      const newEmail = `renamed-${target.email}`;
      const photo = await uploadPhoto(ctx);
      const res = await edit(target.id, {
        name: ' Renamed ',
        email: ` ${newEmail.toUpperCase()} `,
        profileImageUrl: photo,
      }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...USER_KEYS].sort());
      expect(res.body).toMatchObject({
        _id: target.id,
        name: 'Renamed',
        email: newEmail,
        role: 'member',
        profileImageUrl: photo,
      });
      expectNoSecrets(res.body, { noTokens: true });
      const stored = await ctx.api.get(`/api/users/${target.id}`).set(admin.auth).expect(200);
      expect(stored.body).toEqual(res.body);
      await login(newEmail, target.password).expect(200);
      await login(target.email, target.password).expect(401);
      // Neither password nor role changed: the user's token still works.
      await ctx.api.get('/api/auth/profile').set(target.auth).expect(200);
    });

    it('keeps an unchanged e-mail without a conflict', async () => {
      const target = await signUp(ctx);
      const res = await edit(target.id, { email: target.email, name: 'Same Mail' }).expect(200);
      expect(res.body).toMatchObject({ email: target.email, name: 'Same Mail' });
    });

    it('refuses an e-mail that another user has, whatever its case', async () => {
      const target = await signUp(ctx);
      for (const email of [member.email, member.email.toUpperCase()]) {
        const res = await edit(target.id, { email }).expect(409);
        expect(res.body).toEqual({ message: apiMessages.userExists, code: expect.any(String) });
      }
      const stored = await ctx.api.get(`/api/users/${target.id}`).set(admin.auth).expect(200);
      expect(stored.body.email).toBe(target.email);
    });

    it('sets a new password: it signs in, the old one fails and old tokens end', async () => {
      const target = await signUp(ctx);
      await edit(target.id, { password: 'admin-set-password' }).expect(200);
      await login(target.email, 'admin-set-password').expect(200);
      const old = await login(target.email, target.password).expect(401);
      expect(old.body).toEqual({
        message: apiMessages.invalidCredentials,
        code: expect.any(String),
      });
      const res = await ctx.api.get('/api/auth/profile').set(target.auth).expect(401);
      expect(res.body).toEqual(notAuthorized);
    });

    it('promotes a member to admin and demotes again; role changes end old tokens', async () => {
      const target = await signUp(ctx);
      const promoted = await edit(target.id, { role: 'admin' }).expect(200);
      expect(promoted.body.role).toBe('admin');
      // The old token carried the member role: refused rather than trusted.
      await ctx.api.get('/api/users').set(target.auth).expect(401);
      const session = await login(target.email, target.password).expect(200);
      expect(session.body.role).toBe('admin');
      const adminAuth = { Authorization: `Bearer ${session.body.token}` };
      await ctx.api.get('/api/users').set(adminAuth).expect(200);

      const demoted = await edit(target.id, { role: 'member' }).expect(200);
      expect(demoted.body.role).toBe('member');
      await ctx.api.get('/api/users').set(adminAuth).expect(401);
      const again = await login(target.email, target.password).expect(200);
      const list = await ctx.api
        .get('/api/users')
        .set({ Authorization: `Bearer ${again.body.token}` })
        .expect(403);
      expect(list.body).toEqual(adminOnly);
    });

    it('validates the fields it is given', async () => {
      const target = await signUp(ctx);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ name: '' }, 'name', validationMessages.invalidFullName],
        [{ email: 'a@b' }, 'email', validationMessages.invalidEmail],
        [{ role: 'root' }, 'role', validationMessages.invalidRole],
        [{ password: '1234567' }, 'password', validationMessages.passwordTooShort],
        [
          { profileImageUrl: 'ftp://example.com/x.png' },
          'profileImageUrl',
          validationMessages.invalidImageUrl,
        ],
      ];
      for (const [body, path, message] of cases) {
        const res = await edit(target.id, body).expect(400);
        expect(res.body.message).toBe(message);
        expect(res.body.errors).toEqual([{ path, message }]);
      }
      const stored = await ctx.api.get(`/api/users/${target.id}`).set(admin.auth).expect(200);
      const user = publicUserOf(target.user);
      expect(stored.body).toEqual(user);
      await login(target.email, target.password).expect(200);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await edit(id, { name: 'Ghost' }).expect(404);
        expect(res.body).toEqual(userNotFound);
      }
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('removes the user and their assignments; their tasks stay', async () => {
      const leaving = await signUp(ctx);
      const staying = await signUp(ctx);
      const solo = await createTask(ctx, admin, [leaving.id]);
      const shared = await createTask(ctx, admin, [leaving.id, staying.id]);

      const res = await ctx.api.delete(`/api/users/${leaving.id}`).set(admin.auth).expect(200);
      expect(res.body).toEqual({ message: apiMessages.userDeleted });

      const soloAfter = await getTask(solo._id);
      expect(soloAfter.assignedTo).toEqual([]);
      expect(soloAfter.title).toBe(solo.title);
      const sharedAfter = await getTask(shared._id);
      expect(sharedAfter.assignedTo.map((user) => user._id)).toEqual([staying.id]);
      const staysSeen = await ctx.api.get(`/api/tasks/${shared._id}`).set(staying.auth).expect(200);
      expect(staysSeen.body._id).toBe(shared._id);

      // Gone: not listed, not found, cannot sign in, token refused.
      expect((await listUsers()).map((user) => user._id)).not.toContain(leaving.id);
      const gone = await ctx.api.get(`/api/users/${leaving.id}`).set(admin.auth).expect(404);
      expect(gone.body).toEqual(userNotFound);
      await login(leaving.email, leaving.password).expect(401);
      const token = await ctx.api.get('/api/auth/profile').set(leaving.auth).expect(401);
      expect(token.body).toEqual(notAuthorized);
      await ctx.api.get('/api/tasks').set(leaving.auth).expect(401);

      // Their e-mail is free again.
      await ctx.api
        .post('/api/auth/register')
        .send(buildUser({ email: leaving.email }))
        .expect(201);
    });

    it('keeps the tasks an admin created when that admin is deleted', async () => {
      const creator = await signUp(ctx, 'admin');
      const task = await createTask(ctx, creator, [member.id]);
      expect(task.createdBy).toBe(creator.id);
      await ctx.api.delete(`/api/users/${creator.id}/`).set(admin.auth).expect(200);
      const after = await getTask(task._id);
      expect(after.createdBy).toBeNull();
      expect(after.assignedTo.map((user) => user._id)).toEqual([member.id]);
      await ctx.api.get('/api/users').set(creator.auth).expect(401);
    });

    it('answers 404 for an unknown, malformed or already deleted id', async () => {
      const target = await signUp(ctx);
      await ctx.api.delete(`/api/users/${target.id}`).set(admin.auth).expect(200);
      for (const id of [target.id, randomUUID(), 'not-a-uuid']) {
        const res = await ctx.api.delete(`/api/users/${id}`).set(admin.auth).expect(404);
        expect(res.body).toEqual(userNotFound);
      }
    });
  });

  describe('the last admin', () => {
    const adminIds = async () =>
      (await ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').execute()).map(
        (row) => row.id,
      );

    /** Deletes every admin but `keeper` through the API. */
    async function leaveOnlyAdmin(keeper: Session) {
      for (const id of await adminIds()) {
        if (id !== keeper.id) await ctx.api.delete(`/api/users/${id}`).set(keeper.auth).expect(200);
      }
      expect(await adminIds()).toEqual([keeper.id]);
    }

    it('survives two admins removing each other at the same moment', async () => {
      const first = await signUp(ctx, 'admin');
      await leaveOnlyAdmin(first);
      const second = await signUp(ctx, 'admin');
      const deletes = await Promise.all([
        ctx.api.delete(`/api/users/${second.id}`).set(first.auth),
        ctx.api.delete(`/api/users/${first.id}`).set(second.auth),
      ]);
      const statuses = deletes.map((res) => res.status);
      expect(statuses).toContain(200);
      // The loser is refused as the last admin (or, if the winner finished first, as signed out).
      expect(statuses.filter((status) => status !== 200)).toHaveLength(1);
      expect([401, 409]).toContain(statuses.find((status) => status !== 200));
      expect(await adminIds()).toHaveLength(1);

      const [survivorId] = await adminIds();
      const survivor = survivorId === first.id ? first : second;
      const third = await signUp(ctx, 'admin');
      const demotes = await Promise.all([
        ctx.api.put(`/api/users/${third.id}`).set(survivor.auth).send({ role: 'member' }),
        ctx.api.put(`/api/users/${survivor.id}`).set(third.auth).send({ role: 'member' }),
      ]);
      const demoteStatuses = demotes.map((res) => res.status);
      expect(demoteStatuses).toContain(200);
      expect(demoteStatuses.filter((status) => status !== 200)).toHaveLength(1);
      expect([401, 409]).toContain(demoteStatuses.find((status) => status !== 200));
      expect(await adminIds()).toHaveLength(1);
    });

    it('can be neither demoted nor deleted; with a second admin both work', async () => {
      const keeper = await signUp(ctx, 'admin');
      await leaveOnlyAdmin(keeper);

      const demote = await ctx.api
        .put(`/api/users/${keeper.id}`)
        .set(keeper.auth)
        .send({ role: 'member' })
        .expect(409);
      expect(demote.body).toEqual(lastAdmin);
      const remove = await ctx.api.delete(`/api/users/${keeper.id}`).set(keeper.auth).expect(409);
      expect(remove.body).toEqual(lastAdmin);
      // Still an admin, still signed in.
      const self = await ctx.api.get(`/api/users/${keeper.id}`).set(keeper.auth).expect(200);
      expect(self.body.role).toBe('admin');
      // Other edits of the last admin are fine, including keeping the role.
      const renamed = await ctx.api
        .put(`/api/users/${keeper.id}`)
        .set(keeper.auth)
        .send({ name: 'Keeper', role: 'admin' })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Keeper', role: 'admin' });

      // With a second admin, the first can be demoted, and then the second is the last.
      const second = await signUp(ctx, 'admin');
      const demoted = await ctx.api
        .put(`/api/users/${keeper.id}`)
        .set(second.auth)
        .send({ role: 'member' })
        .expect(200);
      expect(demoted.body.role).toBe('member');
      const selfDelete = await ctx.api
        .delete(`/api/users/${second.id}`)
        .set(second.auth)
        .expect(409);
      expect(selfDelete.body).toEqual(lastAdmin);

      // Two admins again: one may delete the other (or themself).
      const third = await signUp(ctx, 'admin');
      await ctx.api.delete(`/api/users/${second.id}`).set(second.auth).expect(200);
      await ctx.api.get('/api/users').set(second.auth).expect(401);
      const finalRemove = await ctx.api
        .delete(`/api/users/${third.id}`)
        .set(third.auth)
        .expect(409);
      expect(finalRemove.body).toEqual(lastAdmin);
    });
  });
});
