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
import { BadRequest, Unauthorized } from '../errors.js';
import { toApiUser, type UserRow, type UserService } from '../users/service.js';
import type { AuthEvents } from './events.js';
import { inviteTokenMatches } from './invite-token.js';
import type { RequestToken } from './middleware.js';
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
    const row = await this.users.findAccountByEmail(input.email);
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

  /** The caller's own profile change (see UserService.updateOwnProfile), with a fresh token. */
  async updateProfile(
    userId: string,
    input: z.output<typeof updateProfileSchema>,
  ): Promise<AuthResponse> {
    return this.session(await this.users.updateOwnProfile(userId, input));
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
