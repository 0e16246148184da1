import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  apiMessages,
  type CreateUserInput,
  type Role,
  type User,
  type UserWithTaskCounts,
  createUserSchema,
  updateProfileSchema,
  updateUserSchema,
} from '@task-manager/shared';
import type { z } from 'zod';
import type { AuthEvents, RevocationReason } from '../auth/events.js';
import { assertPasswordAcceptable } from '../auth/password-policy.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { Database } from '../db/tables.js';
import { BadRequest, Conflict, HttpError, NotFound } from '../errors.js';
import { decodeCursor, encodeCursor, userCursorShape } from '../http/cursor.js';
import { storedImagePath } from '../images/links.js';
import { changeProfileImage } from '../images/service.js';
import {
  countAdminsForUpdate,
  deleteUserRow,
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  listMembersWithTaskCounts,
  streamUserReportRows,
  toApiUser,
  updateUserRow,
  type UserRow,
} from './repository.js';
import { canSetPasswordOf, takesAnAdminAway } from './policy.js';

export { toApiUser, type UserRow } from './repository.js';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  role: Role;
  profileImageUrl?: string | null;
}

export class UserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hasher: PasswordHasher,
    /** Where role changes, password resets and deletions are reported (the CLI needs none). */
    private readonly events?: Pick<AuthEvents, 'tokensRevoked'>,
  ) {}

  async create(input: NewUser): Promise<UserRow> {
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
      created_at: now,
      updated_at: now,
    };
    try {
      // The photo becomes the new user's in the same transaction: both, or neither.
      await this.db.transaction().execute(async (trx) => {
        await insertUser(trx, row);
        await changeProfileImage(trx, row.id, row.profile_image_url);
      });
    } catch (error) {
      // Two sign-ups with one e-mail at once: the unique index decides.
      if (isUniqueViolation(error)) throw Conflict(apiMessages.userExists);
      throw error;
    }
    return row;
  }

  /** One page of members by name with their task counts, and the cursor of the next page. */
  async listMembers(query: {
    limit: number;
    cursor?: string;
    search?: string;
  }): Promise<{ users: UserWithTaskCounts[]; nextCursor: string | null }> {
    const after = query.cursor ? decodeCursor(query.cursor, userCursorShape) : undefined;
    // One row more than asked tells whether a next page exists without counting.
    const users = await listMembersWithTaskCounts(this.db, {
      limit: query.limit + 1,
      after,
      search: query.search,
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
    const row = await findUserById(this.db, id);
    if (!row) throw NotFound(apiMessages.userNotFound);
    return toApiUser(row);
  }

  async createByAdmin(input: z.output<typeof createUserSchema>): Promise<User> {
    return toApiUser(await this.create(input satisfies CreateUserInput));
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
    if (input.password !== undefined && !canSetPasswordOf(callerId, id)) {
      throw BadRequest(apiMessages.ownPasswordViaProfile, [
        { path: 'password', message: apiMessages.ownPasswordViaProfile },
      ]);
    }
    const { user, revoked } = await this.db.transaction().execute(async (trx) => {
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
      const revoked: RevocationReason[] = [];
      if (roleChanged) revoked.push('role-change');
      if (input.password !== undefined) revoked.push('password-change');
      return { user: toApiUser({ ...row, ...patch }), revoked };
    });
    // Reported once committed: a rolled-back change ended nothing.
    for (const reason of revoked) this.events?.tokensRevoked(id, reason);
    return user;
  }

  /**
   * A user's change to their own profile: name, photo, password. A new password needs the current
   * one, and ends every other session of the user (the caller gets a fresh token from the row
   * returned): the one place where a password change ends sessions.
   */
  async updateOwnProfile(
    userId: string,
    input: z.output<typeof updateProfileSchema>,
  ): Promise<UserRow> {
    const row = await findUserById(this.db, userId);
    if (!row) throw NotFound(apiMessages.userNotFound);
    const patch: Partial<UserRow> = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.profileImageUrl !== undefined && {
        profile_image_url: storedImagePath(input.profileImageUrl),
      }),
    };
    if (input.newPassword !== undefined) {
      const account = { email: row.email, name: input.name ?? row.name };
      assertPasswordAcceptable(input.newPassword, account, 'newPassword');
      const ok = await this.hasher.verify(input.currentPassword ?? '', row.password_hash);
      if (!ok) {
        throw new HttpError(
          400,
          apiMessages.wrongCurrentPassword,
          [{ path: 'currentPassword', message: apiMessages.wrongCurrentPassword }],
          { code: 'wrong_current_password' },
        );
      }
      patch.password_hash = await this.hasher.hash(input.newPassword);
      // Every other session of this user ends; the answer carries a fresh token.
      patch.token_version = row.token_version + 1;
    }
    patch.updated_at = new Date().toISOString();
    const photo = patch.profile_image_url;
    if (photo === undefined) {
      await updateUserRow(this.db, userId, patch);
    } else {
      // The new photo becomes the user's and the former one goes, with the row: all or nothing.
      await this.db.transaction().execute(async (trx) => {
        const current = await findUserById(trx, userId);
        if (!current) throw NotFound(apiMessages.userNotFound);
        await updateUserRow(trx, userId, patch);
        await changeProfileImage(trx, userId, photo, current.profile_image_url);
      });
    }
    if (patch.token_version !== undefined) this.events?.tokensRevoked(userId, 'password-change');
    return { ...row, ...patch };
  }

  /** Deleting a user removes their assignments and their photo (cascade); their tasks stay. */
  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await findUserById(trx, id);
      if (!row) throw NotFound(apiMessages.userNotFound);
      if (takesAnAdminAway(row) && (await countAdminsForUpdate(trx)) <= 1) {
        throw Conflict(apiMessages.lastAdmin);
      }
      await deleteUserRow(trx, id);
    });
    // No user row, no session: requireAuth refuses every token of a deleted user.
    this.events?.tokensRevoked(id, 'user-deleted');
  }
}
