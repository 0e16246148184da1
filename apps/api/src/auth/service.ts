import type { Kysely } from 'kysely';
import {
  apiMessages,
  type AuthResponse,
  type loginSchema,
  type registerSchema,
  type updateProfileSchema,
} from '@task-manager/shared';
import type { z } from 'zod';
import type { Database } from '../db/tables.js';
import { BadRequest, HttpError, NotFound, Unauthorized } from '../errors.js';
import { storedImagePath } from '../images/links.js';
import { changeProfileImage } from '../images/service.js';
import {
  findUserByEmail,
  findUserById,
  toApiUser,
  updateUserRow,
  type UserRow,
} from '../users/repository.js';
import type { UserService } from '../users/service.js';
import type { AuthEvents } from './events.js';
import { inviteTokenMatches } from './invite-token.js';
import type { RequestToken } from './middleware.js';
import { assertPasswordAcceptable } from './password-policy.js';
import { timingDummyHash, type PasswordHasher } from './passwords.js';
import { pruneExpiredRevocations, revokeToken } from './repository.js';
import type { TokenService } from './tokens.js';

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly adminInviteToken: string,
    private readonly bcryptCost: number,
    private readonly events: AuthEvents,
  ) {}

  async register(input: z.output<typeof registerSchema>): Promise<AuthResponse> {
    let role: 'admin' | 'member' = 'member';
    if (input.adminInviteToken !== undefined) {
      // A wrong code is an error, never a silent member account.
      if (!inviteTokenMatches(input.adminInviteToken, this.adminInviteToken)) {
        throw BadRequest(apiMessages.invalidInviteToken, [
          { path: 'adminInviteToken', message: apiMessages.invalidInviteToken },
        ]);
      }
      role = 'admin';
    }
    const row = await this.users.create({ ...input, role });
    this.events.registered(row.id, row.role);
    return this.session(row);
  }

  async login(input: z.output<typeof loginSchema>): Promise<AuthResponse> {
    const row = await findUserByEmail(this.db, input.email);
    // Compare against a dummy hash when there is no such user, so timing does not tell.
    const hash = row?.password_hash ?? (await timingDummyHash(this.bcryptCost));
    const ok = await this.hasher.verify(input.password, hash);
    if (!row || !ok) {
      this.events.loginFailed(input.email, row ? 'wrong-password' : 'unknown-email');
      throw Unauthorized(apiMessages.invalidCredentials);
    }
    this.events.loginSucceeded(row.id);
    return this.session(row);
  }

  async updateProfile(
    userId: string,
    input: z.output<typeof updateProfileSchema>,
  ): Promise<AuthResponse> {
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
    if (patch.token_version !== undefined) this.events.tokensRevoked(userId, 'password-change');
    return this.session({ ...row, ...patch });
  }

  /** Ends this one token; the user's other sessions go on. */
  async logout(userId: string, token: RequestToken): Promise<void> {
    await revokeToken(this.db, token.jti, token.expiresAt);
    // The table only grows with logouts; rows of expired tokens are of no more use.
    await pruneExpiredRevocations(this.db, new Date());
    this.events.tokensRevoked(userId, 'logout');
  }

  private session(row: UserRow): AuthResponse {
    return { ...toApiUser(row), token: this.tokens.sign({ sub: row.id, ver: row.token_version }) };
  }
}
