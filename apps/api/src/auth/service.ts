import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  apiMessages,
  type AuthResponse,
  type Language,
  type loginSchema,
  type passwordResetConfirmSchema,
  type registerSchema,
  type SignupMode,
  type updateProfileSchema,
  type updateUserSchema,
  type User,
} from '@task-manager/shared';
import type { z } from 'zod';
import { recordAudit } from '../audit/service.js';
import type { Database } from '../db/tables.js';
import { BadRequest, HttpError, NotFound, Unauthorized } from '../errors.js';
import { hashLinkToken, newLinkToken } from '../invites/tokens.js';
import type { InviteService } from '../invites/service.js';
import { enqueueMail } from '../mail/outbox.js';
import { textsFor } from '../i18n/texts.js';
import type { MailSender } from '../mail/sender.js';
import type { SettingsService } from '../settings/service.js';
import { toApiUser, toOwnUser, type UserRow, type UserService } from '../users/service.js';
import type { AuthEvents } from './events.js';
import { inviteTokenMatches } from './invite-token.js';
import type { RequestToken } from './middleware.js';
import { timingDummyHash, type PasswordHasher } from './passwords.js';
import { pruneExpiredRevocations, revokeToken } from './repository.js';
import {
  findPasswordReset,
  insertPasswordReset,
  pruneOldPasswordResets,
  usePasswordReset,
} from './reset-repository.js';
import type { TokenService } from './tokens.js';

const HOUR_MS = 3_600_000;
/** A reset link an admin hands over lives a day; one sent by e-mail an hour. */
export const ADMIN_RESET_LINK_MS = 24 * HOUR_MS;
export const EMAIL_RESET_LINK_MS = HOUR_MS;

export interface AuthOptions {
  signupMode: SignupMode;
  /** Set when e-mail can be sent: links in mails start with `publicUrl`. */
  mail?: { publicUrl: string; sender: MailSender };
}

export const accountDeactivated = (status: 401 | 403) =>
  new HttpError(status, apiMessages.accountDeactivated, undefined, {
    code: 'account_deactivated',
  });

const invalidResetToken = () =>
  new HttpError(
    400,
    apiMessages.invalidResetToken,
    [{ path: 'token', message: apiMessages.invalidResetToken }],
    { code: 'invalid_reset_token' },
  );

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly settings: SettingsService,
    private readonly invites: InviteService,
    private readonly bcryptCost: number,
    private readonly events: AuthEvents,
    private readonly options: AuthOptions,
  ) {}

  /** What the sign-in and sign-up pages need to know. */
  authOptions(): { signupMode: SignupMode; passwordResetByEmail: boolean } {
    return { signupMode: this.options.signupMode, passwordResetByEmail: !!this.options.mail };
  }

  async register(input: z.output<typeof registerSchema>): Promise<AuthResponse> {
    let role: 'admin' | 'member' = 'member';
    let useInvite: ((trx: Kysely<Database>, userId: string) => Promise<void>) | undefined;
    if (input.invite !== undefined) {
      const invite = await this.invites.prepare(input.invite, input.email);
      role = invite.role;
      useInvite = invite.use;
    } else if (input.adminInviteToken !== undefined) {
      // A wrong code is an error, never a silent member account.
      if (!inviteTokenMatches(input.adminInviteToken, await this.settings.adminInviteToken())) {
        throw BadRequest(apiMessages.invalidInviteToken, [
          { path: 'adminInviteToken', message: apiMessages.invalidInviteToken },
        ]);
      }
      role = 'admin';
    } else if (this.options.signupMode === 'invite') {
      throw new HttpError(403, apiMessages.signupInviteOnly, undefined, {
        code: 'signup_invite_only',
      });
    }
    const row = await this.users.create(
      { ...input, role },
      useInvite && ((trx, created) => useInvite(trx, created.id)),
    );
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
    // Said only to whoever knows the password: no one learns of a deactivation by guessing.
    if (Number(row.active) !== 1) throw accountDeactivated(403);
    this.events.loginSucceeded(row.id);
    return this.session(row);
  }

  /**
   * The caller's own profile change (see UserService.updateOwnProfile), with a fresh token. A
   * changed e-mail address is told to the former one, a changed password to the account's
   * address (with e-mail set up): whoever changed them, the owner hears of it.
   */
  async updateProfile(
    userId: string,
    input: z.output<typeof updateProfileSchema>,
  ): Promise<AuthResponse> {
    const { before, after } = await this.users.updateOwnProfile(userId, input);
    this.noticeAccountChange(before, after, input.newPassword !== undefined).catch(
      (error: unknown) => this.events.accountNoticeFailed(error),
    );
    return this.session(after);
  }

  /**
   * An admin's edit of a user (UserService.update). A changed e-mail address or password is
   * told to the person as their own change is (updateProfile), naming the admin who made it.
   */
  async updateUserByAdmin(
    actorId: string,
    userId: string,
    input: z.output<typeof updateUserSchema>,
  ): Promise<User> {
    const { before, after } = await this.users.updateRows(userId, input, actorId);
    const passwordChanged = input.password !== undefined;
    if (before.email !== after.email || passwordChanged) {
      const admin =
        actorId === userId ? undefined : await this.users.findAccountById(this.db, actorId);
      this.noticeAccountChange(before, after, passwordChanged, admin?.name).catch(
        (error: unknown) => this.events.accountNoticeFailed(error),
      );
    }
    return toApiUser(after);
  }

  private async noticeAccountChange(
    before: { email: string },
    after: { email: string; name: string; language: Language | null },
    passwordChanged: boolean,
    /** The admin who made the change, when it was not the person. */
    byAdmin?: string,
  ): Promise<void> {
    const mail = this.options.mail;
    if (!mail) return;
    const texts = textsFor(after.language);
    const { account } = texts;
    const help = byAdmin === undefined ? account.help : account.adminHelp;
    const letter = (body: string) =>
      `${texts.hello(after.name)}\n\n${body}\n\n${help(`${mail.publicUrl}/login`)}\n`;
    const notices: Array<{ to: string; subject: string; text: string }> = [];
    if (before.email !== after.email) {
      notices.push({
        to: before.email,
        subject: account.emailChangedSubject,
        text: letter(
          byAdmin === undefined
            ? account.emailChanged(before.email, after.email)
            : account.emailChangedByAdmin(byAdmin, before.email, after.email),
        ),
      });
    }
    if (passwordChanged) {
      notices.push({
        to: after.email,
        subject: account.passwordChangedSubject,
        text: letter(
          byAdmin === undefined ? account.passwordChanged : account.passwordChangedByAdmin(byAdmin),
        ),
      });
    }
    if (notices.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const notice of notices) await enqueueMail(trx, notice);
    });
    mail.sender.kick();
  }

  /** Ends this one token; the user's other sessions go on. */
  async logout(userId: string, token: RequestToken): Promise<void> {
    await revokeToken(this.db, token.jti, token.expiresAt);
    // The table only grows with logouts; rows of expired tokens are of no more use.
    await pruneExpiredRevocations(this.db, new Date());
    this.events.tokensRevoked(userId, 'logout');
  }

  /** Ends every session of the caller, this one included. */
  async logoutAll(userId: string): Promise<void> {
    await this.users.endAllSessions(userId);
  }

  /**
   * An admin's single-use reset link for someone, valid 24 hours, to hand over. Earlier links
   * of that person keep working until used or expired; using any ends them all.
   */
  async createResetLink(
    actorId: string,
    userId: string,
  ): Promise<{ url: string; expiresAt: string }> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.users.findAccountById(trx, userId);
      if (!row) throw NotFound(apiMessages.userNotFound);
      const link = await this.storeResetLink(trx, row, ADMIN_RESET_LINK_MS);
      await recordAudit(trx, {
        actorId,
        action: 'user.password-reset-link',
        target: { type: 'user', id: row.id, label: row.email },
        data: { expiresAt: link.expiresAt },
      });
      return link;
    });
  }

  /**
   * "Forgot password": with e-mail set up and an account with this address, a link valid one
   * hour goes to it through the outbox. The caller answers at once, before the address is even
   * looked up: neither the answer nor its timing tells who has an account. A failure is logged.
   */
  requestPasswordReset(
    email: string,
    /** The asking browser's language (Accept-Language), for an account that chose none. */
    accepted?: string | false,
  ): void {
    const mail = this.options.mail;
    if (!mail) return;
    this.sendResetLink(email, mail, accepted).catch((error: unknown) =>
      this.events.passwordResetFailed(error),
    );
  }

  private async sendResetLink(
    email: string,
    mail: NonNullable<AuthOptions['mail']>,
    accepted: string | false | undefined,
  ): Promise<void> {
    const row = await this.users.findAccountByEmail(email);
    if (!row || Number(row.active) !== 1) return;
    await this.db.transaction().execute(async (trx) => {
      const link = await this.storeResetLink(trx, row, EMAIL_RESET_LINK_MS);
      const url = `${mail.publicUrl}${link.url}`;
      const texts = textsFor(row.language, accepted);
      await enqueueMail(trx, {
        to: row.email,
        subject: texts.reset.subject,
        text: `${texts.hello(row.name)}\n\n${texts.reset.body(url)}\n`,
      });
    });
    mail.sender.kick();
  }

  /**
   * Sets a new password with a reset link: the link works once, and every session of the person
   * ends (they sign in again with the new password).
   */
  async confirmPasswordReset(input: z.output<typeof passwordResetConfirmSchema>): Promise<void> {
    const now = new Date().toISOString();
    const userId = await this.db.transaction().execute(async (trx) => {
      const reset = await findPasswordReset(trx, hashLinkToken(input.token));
      if (!reset || reset.used_at !== null || reset.expires_at <= now) throw invalidResetToken();
      const row = await this.users.findAccountById(trx, reset.user_id);
      if (!row) throw invalidResetToken();
      await this.users.setPasswordByReset(trx, row, input.password);
      if (!(await usePasswordReset(trx, reset, now))) throw invalidResetToken();
      return row.id;
    });
    await pruneOldPasswordResets(this.db, now);
    this.events.tokensRevoked(userId, 'password-reset');
  }

  private async storeResetLink(trx: Kysely<Database>, row: UserRow, lifetimeMs: number) {
    const { token, hash } = newLinkToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + lifetimeMs).toISOString();
    await insertPasswordReset(trx, {
      id: randomUUID(),
      token_hash: hash,
      user_id: row.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
    });
    return { url: `/reset-password?token=${token}`, expiresAt };
  }

  private session(row: UserRow): AuthResponse {
    return { ...toOwnUser(row), token: this.tokens.sign({ sub: row.id, ver: row.token_version }) };
  }
}
