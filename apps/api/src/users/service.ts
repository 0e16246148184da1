import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  apiMessages,
  type CreateUserInput,
  type Language,
  type Role,
  type OwnUser,
  type User,
  type UserWithTaskCounts,
  createUserSchema,
  patchUserSchema,
  updateProfileSchema,
  updateUserSchema,
} from '@task-manager/shared';
import type { z } from 'zod';
import type { AuthEvents, RevocationReason } from '../auth/events.js';
import { assertPasswordAcceptable } from '../auth/password-policy.js';
import type { PasswordHasher } from '../auth/passwords.js';
import { recordAudit } from '../audit/service.js';
import { appendEvents } from '../events/log.js';
import type { Database } from '../db/tables.js';
import { BadRequest, Conflict, HttpError, NotFound } from '../errors.js';
import { decodeCursor, encodeCursor, userCursorShape } from '../http/cursor.js';
import { storedImagePath } from '../images/links.js';
import { changeProfileImage } from '../images/service.js';
import {
  activeUserIds,
  countAdminsForUpdate,
  countTasksOf,
  deleteUserRow,
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  listMembersWithTaskCounts,
  reassignTasks,
  streamUserReportRows,
  toApiUser,
  toOwnUser,
  updateUserRow,
  type UserFilter,
  type UserRow,
} from './repository.js';
import { canSetPasswordOf, takesAnAdminAway } from './policy.js';

export { toApiUser, toOwnUser, type UserRow } from './repository.js';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  role: Role;
  profileImageUrl?: string | null;
  /** The language of the app the person signed up in, if known. */
  language?: Language;
}

/**
 * Tells the person's open tabs and every admin's that an account changed (name, photo, e-mail,
 * role, language...): they refetch what shows it. In the writing transaction.
 */
function userUpdated(trx: Kysely<Database>, userId: string): Promise<void> {
  return appendEvents(trx, [
    { type: 'user.updated', taskId: null, userIds: [userId], toAdmins: true, data: { userId } },
  ]);
}

/**
 * Hands `fromId`'s tasks (`openOnly`: those not Completed) to `reassignTo`, who must be another
 * active user (400 naming `reassignTo` if not); answers how many tasks `fromId` left.
 */
async function handOverTasks(
  trx: Kysely<Database>,
  fromId: string,
  reassignTo: string,
  options?: { openOnly?: boolean },
): Promise<number> {
  if (!(await activeUserIds(trx, [reassignTo])).has(reassignTo)) {
    throw BadRequest(apiMessages.reassignTargetInvalid, [
      { path: 'reassignTo', message: apiMessages.reassignTargetInvalid },
    ]);
  }
  return reassignTasks(trx, fromId, reassignTo, options);
}

export class UserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hasher: PasswordHasher,
    /** Where role changes, password resets and deletions are reported (the CLI needs none). */
    private readonly events?: Pick<AuthEvents, 'tokensRevoked'>,
  ) {}

  /**
   * Creates an account. `within` runs in the same transaction once the row is written (an
   * invitation is used up there: both, or neither).
   */
  async create(
    input: NewUser,
    within?: (trx: Kysely<Database>, row: UserRow) => Promise<void>,
  ): Promise<UserRow> {
    assertPasswordAcceptable(input.password, input, 'password');
    const photo = storedImagePath(input.profileImageUrl ?? null);
    if (await findUserByEmail(this.db, input.email)) throw Conflict(apiMessages.userExists);
    const now = new Date().toISOString();
    const row: UserRow = {
      id: randomUUID(),
      name: input.name,
      email: input.email,
      password_hash: await this.hasher.hash(input.password),
      role: input.role,
      profile_image_url: photo,
      token_version: 0,
      language: input.language ?? null,
      active: 1,
      created_at: now,
      updated_at: now,
    };
    try {
      // The photo becomes the new user's in the same transaction: both, or neither.
      await this.db.transaction().execute(async (trx) => {
        await insertUser(trx, row);
        await changeProfileImage(trx, row.id, row.profile_image_url);
        await within?.(trx, row);
      });
    } catch (error) {
      // Two sign-ups with one e-mail at once: the unique index decides.
      if (isUniqueViolation(error)) throw Conflict(apiMessages.userExists);
      throw error;
    }
    return row;
  }

  /**
   * One page of people by name with their task counts, and the cursor of the next page: everyone
   * (admins too, active or not) unless `role` or `active` narrow it.
   */
  async listMembers(
    query: { limit: number; cursor?: string; q?: string } & UserFilter,
  ): Promise<{ users: UserWithTaskCounts[]; nextCursor: string | null }> {
    const after = query.cursor ? decodeCursor(query.cursor, userCursorShape) : undefined;
    // One row more than asked tells whether a next page exists without counting.
    const users = await listMembersWithTaskCounts(this.db, {
      limit: query.limit + 1,
      after,
      search: query.q ?? query.search,
      role: query.role,
      active: query.active,
    });
    const page = users.slice(0, query.limit);
    const last = page.at(-1);
    const nextCursor =
      users.length > query.limit && last ? encodeCursor([last.name, last._id]) : null;
    return { users: page, nextCursor };
  }

  /** Every member by name with their task counts, a batch at a time: for the export. */
  exportRows(): AsyncGenerator<UserWithTaskCounts> {
    return streamUserReportRows(this.db);
  }

  /** The account an e-mail names, with its password hash: for signing in only. */
  findAccountByEmail(email: string): Promise<UserRow | undefined> {
    return findUserByEmail(this.db, email);
  }

  async get(id: string): Promise<User> {
    return toApiUser(await this.findOrThrow(id));
  }

  /** The signed-in person's own account (GET /api/auth/profile). */
  async getOwn(id: string): Promise<OwnUser> {
    return toOwnUser(await this.findOrThrow(id));
  }

  private async findOrThrow(id: string): Promise<UserRow> {
    const row = await findUserById(this.db, id);
    if (!row) throw NotFound(apiMessages.userNotFound);
    return row;
  }

  /** An account made by an admin (POST /api/users), recorded in the audit log with it. */
  async createByAdmin(input: z.output<typeof createUserSchema>, actorId: string): Promise<User> {
    const row = await this.create(input satisfies CreateUserInput, (trx, created) =>
      recordAudit(trx, {
        actorId,
        action: 'user.create',
        target: { type: 'user', id: created.id, label: created.email },
        data: { name: created.name, role: created.role },
      }),
    );
    return toApiUser(row);
  }

  /**
   * Admin edit: name, e-mail, role, password, photo. Role and password changes end old tokens.
   * An admin's own password changes only through the profile, which asks for the current one, so
   * that a stolen session cannot lock its owner out.
   */
  async update(
    id: string,
    input: z.output<typeof updateUserSchema>,
    callerId: string,
  ): Promise<User> {
    return toApiUser((await this.updateRows(id, input, callerId)).after);
  }

  /** An admin's edit of a user (update), answering the row before the change and after it. */
  async updateRows(
    id: string,
    input: z.output<typeof updateUserSchema>,
    callerId: string,
  ): Promise<{ before: UserRow; after: UserRow }> {
    if (input.password !== undefined && !canSetPasswordOf(callerId, id)) {
      throw BadRequest(apiMessages.ownPasswordViaProfile, [
        { path: 'password', message: apiMessages.ownPasswordViaProfile },
      ]);
    }
    const { before, after, revoked } = await this.db.transaction().execute(async (trx) => {
      const row = await findUserById(trx, id);
      if (!row) throw NotFound(apiMessages.userNotFound);
      if (input.password !== undefined) {
        const account = { email: input.email ?? row.email, name: input.name ?? row.name };
        assertPasswordAcceptable(input.password, account, 'password');
      }
      if (input.email !== undefined && input.email !== row.email) {
        const other = await findUserByEmail(trx, input.email);
        if (other) throw Conflict(apiMessages.userExists);
      }
      if (
        input.role !== undefined &&
        takesAnAdminAway(row, input.role) &&
        Number(row.active) === 1 &&
        (await countAdminsForUpdate(trx)) <= 1
      ) {
        throw Conflict(apiMessages.lastAdmin);
      }
      const roleChanged = input.role !== undefined && input.role !== row.role;
      const patch: Partial<UserRow> = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.email !== undefined && { email: input.email }),
        ...(input.role !== undefined && { role: input.role }),
        ...(input.profileImageUrl !== undefined && {
          profile_image_url: storedImagePath(input.profileImageUrl),
        }),
        ...(input.password !== undefined && {
          password_hash: await this.hasher.hash(input.password),
        }),
        ...((roleChanged || input.password !== undefined) && {
          token_version: row.token_version + 1,
        }),
        updated_at: new Date().toISOString(),
      };
      try {
        await updateUserRow(trx, id, patch);
      } catch (error) {
        if (isUniqueViolation(error)) throw Conflict(apiMessages.userExists);
        throw error;
      }
      if (patch.profile_image_url !== undefined) {
        await changeProfileImage(trx, id, patch.profile_image_url, row.profile_image_url);
      }
      await userUpdated(trx, id);
      await recordAudit(trx, {
        actorId: callerId,
        action: 'user.update',
        target: { type: 'user', id, label: row.email },
        data: adminEditOf(row, input),
      });
      const revoked: RevocationReason[] = [];
      if (roleChanged) revoked.push('role-change');
      if (input.password !== undefined) revoked.push('password-change');
      return { before: row, after: { ...row, ...patch }, revoked };
    });
    // Reported once committed: a rolled-back change ended nothing.
    for (const reason of revoked) this.events?.tokensRevoked(id, reason);
    return { before, after };
  }

  /**
   * A user's change to their own profile: name, photo, password. A new password needs the current
   * one, and ends every other session of the user (the caller gets a fresh token from the row
   * returned): the one place where a password change ends sessions. Answers the row before the
   * change and after it.
   */
  async updateOwnProfile(
    userId: string,
    input: z.output<typeof updateProfileSchema>,
  ): Promise<{ before: UserRow; after: UserRow }> {
    const row = await findUserById(this.db, userId);
    if (!row) throw NotFound(apiMessages.userNotFound);
    const patch: Partial<UserRow> = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.language !== undefined && { language: input.language }),
      ...(input.profileImageUrl !== undefined && {
        profile_image_url: storedImagePath(input.profileImageUrl),
      }),
    };
    const emailChanged = input.email !== undefined && input.email !== row.email;
    if (input.newPassword !== undefined) {
      const account = { email: input.email ?? row.email, name: input.name ?? row.name };
      assertPasswordAcceptable(input.newPassword, account, 'newPassword');
    }
    if (input.newPassword !== undefined || emailChanged) {
      const ok = await this.hasher.verify(input.currentPassword ?? '', row.password_hash);
      if (!ok) {
        throw new HttpError(
          400,
          apiMessages.wrongCurrentPassword,
          [{ path: 'currentPassword', message: apiMessages.wrongCurrentPassword }],
          { code: 'wrong_current_password' },
        );
      }
    }
    if (emailChanged) {
      if (await findUserByEmail(this.db, input.email!)) throw Conflict(apiMessages.userExists);
      patch.email = input.email;
    }
    if (input.newPassword !== undefined) {
      patch.password_hash = await this.hasher.hash(input.newPassword);
      // Every other session of this user ends; the answer carries a fresh token.
      patch.token_version = row.token_version + 1;
    }
    patch.updated_at = new Date().toISOString();
    const photo = patch.profile_image_url;
    try {
      // The row, a new photo (the former one goes) and the live event: all or nothing.
      await this.db.transaction().execute(async (trx) => {
        const current = await findUserById(trx, userId);
        if (!current) throw NotFound(apiMessages.userNotFound);
        await updateUserRow(trx, userId, patch);
        if (photo !== undefined) {
          await changeProfileImage(trx, userId, photo, current.profile_image_url);
        }
        // What others see of the person changed: the language or a password alone shows nowhere
        // else (and a new password ends the other sessions anyway).
        if (patch.name !== undefined || patch.email !== undefined || photo !== undefined) {
          await userUpdated(trx, userId);
        }
      });
    } catch (error) {
      // Two accounts taking one address at once: the unique index decides.
      if (isUniqueViolation(error)) throw Conflict(apiMessages.userExists);
      throw error;
    }
    if (patch.token_version !== undefined) this.events?.tokensRevoked(userId, 'password-change');
    return { before: row, after: { ...row, ...patch } };
  }

  /**
   * Deleting a user removes their photo (cascade); their tasks stay. Their assignments go with
   * them, or, with `reassignTo` (another active user), every one of their tasks is handed to that
   * person in the same transaction. Never the last active admin.
   */
  async delete(id: string, actorId?: string, reassignTo?: string): Promise<{ reassigned: number }> {
    if (reassignTo !== undefined && reassignTo === id) {
      throw BadRequest(apiMessages.reassignToSelf, [
        { path: 'reassignTo', message: apiMessages.reassignToSelf },
      ]);
    }
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await findUserById(trx, id);
      if (!row) throw NotFound(apiMessages.userNotFound);
      if (this.isActiveAdmin(row) && (await countAdminsForUpdate(trx)) <= 1) {
        throw Conflict(apiMessages.lastAdmin);
      }
      const tasks = await countTasksOf(trx, id);
      const reassigned = reassignTo === undefined ? 0 : await handOverTasks(trx, id, reassignTo);
      await deleteUserRow(trx, id);
      if (actorId) {
        await recordAudit(trx, {
          actorId,
          action: 'user.delete',
          target: { type: 'user', id, label: row.email },
          data: { name: row.name, role: row.role, tasks, reassignTo: reassignTo ?? null },
        });
      }
      return { reassigned };
    });
    // No user row, no session: requireAuth refuses every token of a deleted user.
    this.events?.tokensRevoked(id, 'user-deleted');
    return result;
  }

  private isActiveAdmin(row: UserRow): boolean {
    return takesAnAdminAway(row) && Number(row.active) === 1;
  }

  /**
   * An admin changes someone's role or (de)activates them. Deactivating ends every session at
   * once (the token version rises and requireAuth refuses inactive accounts); the person stays on
   * their tasks and in history, or, with `reassignTo` (another active user), their open tasks
   * are handed to that person in the same transaction. The last active admin can neither be
   * demoted nor deactivated.
   */
  async patch(id: string, input: z.output<typeof patchUserSchema>, actorId: string): Promise<User> {
    if (input.reassignTo !== undefined && input.reassignTo === id) {
      throw BadRequest(apiMessages.reassignToDeactivated, [
        { path: 'reassignTo', message: apiMessages.reassignToDeactivated },
      ]);
    }
    const { user, revoked } = await this.db.transaction().execute(async (trx) => {
      const row = await findUserById(trx, id);
      if (!row) throw NotFound(apiMessages.userNotFound);
      const wasActive = Number(row.active) === 1;
      const roleChanged = input.role !== undefined && input.role !== row.role;
      const activeChanged = input.active !== undefined && input.active !== wasActive;
      const losesAdmin =
        this.isActiveAdmin(row) &&
        ((input.role !== undefined && input.role !== 'admin') || input.active === false);
      if (losesAdmin && (await countAdminsForUpdate(trx)) <= 1) {
        throw Conflict(apiMessages.lastAdmin);
      }
      const patch: Partial<UserRow> = {
        ...(roleChanged && { role: input.role }),
        ...(activeChanged && { active: input.active ? 1 : 0 }),
        ...((roleChanged || (activeChanged && !input.active)) && {
          token_version: row.token_version + 1,
        }),
      };
      const reassigned =
        input.reassignTo === undefined
          ? 0
          : await handOverTasks(trx, id, input.reassignTo, { openOnly: true });
      if (roleChanged || activeChanged || reassigned > 0) {
        patch.updated_at = new Date().toISOString();
        await updateUserRow(trx, id, patch);
        await userUpdated(trx, id);
      }
      if (roleChanged) {
        await recordAudit(trx, {
          actorId,
          action: 'user.role',
          target: { type: 'user', id, label: row.email },
          data: { from: row.role, to: input.role },
        });
      }
      // A handover to someone deactivated before is recorded as well, as a deactivation.
      if (activeChanged || reassigned > 0) {
        await recordAudit(trx, {
          actorId,
          action: input.active ? 'user.reactivate' : 'user.deactivate',
          target: { type: 'user', id, label: row.email },
          ...(input.reassignTo !== undefined && {
            data: { reassignTo: input.reassignTo, reassigned },
          }),
        });
      }
      const revoked: RevocationReason[] = [];
      if (roleChanged) revoked.push('role-change');
      if (activeChanged && !input.active) revoked.push('deactivated');
      return { user: toApiUser({ ...row, ...patch }), revoked };
    });
    for (const reason of revoked) this.events?.tokensRevoked(id, reason);
    return user;
  }

  /** Whether these users are active (the others are left out): for reassignment and invitations. */
  activeUserIds(ids: string[]): Promise<Set<string>> {
    return activeUserIds(this.db, ids);
  }

  /** The account an id names, with its hash: for the password-reset flow only. */
  findAccountById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
    return findUserById(db, id);
  }

  /**
   * Sets a new password through a reset link, in the caller's transaction: the password rules of
   * sign-up apply, and every session of the person ends (the token version rises).
   */
  async setPasswordByReset(trx: Kysely<Database>, row: UserRow, password: string): Promise<void> {
    assertPasswordAcceptable(password, { email: row.email, name: row.name }, 'password');
    await updateUserRow(trx, row.id, {
      password_hash: await this.hasher.hash(password),
      token_version: row.token_version + 1,
      updated_at: new Date().toISOString(),
    });
  }

  /** Ends every session of a user, this one included ("sign out everywhere"). */
  async endAllSessions(userId: string): Promise<void> {
    const row = await findUserById(this.db, userId);
    if (!row) throw NotFound(apiMessages.userNotFound);
    await updateUserRow(this.db, userId, {
      token_version: row.token_version + 1,
      updated_at: new Date().toISOString(),
    });
    this.events?.tokensRevoked(userId, 'logout-all');
  }
}

/**
 * What an admin's edit changed, for the audit log: before and after of the name, e-mail and role,
 * and only the fact of a new password or photo (never the password itself).
 */
function adminEditOf(
  row: UserRow,
  input: z.output<typeof updateUserSchema>,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (input.name !== undefined && input.name !== row.name) {
    changes.name = { from: row.name, to: input.name };
  }
  if (input.email !== undefined && input.email !== row.email) {
    changes.email = { from: row.email, to: input.email };
  }
  if (input.role !== undefined && input.role !== row.role) {
    changes.role = { from: row.role, to: input.role };
  }
  if (input.password !== undefined) changes.password = 'changed';
  if (input.profileImageUrl !== undefined) changes.photo = 'changed';
  return changes;
}
