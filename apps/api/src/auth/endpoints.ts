import {
  apiMessages,
  LANGUAGES,
  authOptionsSchema,
  authResponseSchema,
  loginSchema,
  messageResponseSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registerSchema,
  updateProfileSchema,
  userSchema,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { withStoredImagePath } from '../images/links.js';
import { errorResponse, errors, ok } from '../openapi/responses.js';
import { currentToken } from './middleware.js';

/**
 * The largest body these routes take. The biggest valid one, a sign-up, is under 3 KB (a
 * 2,048-character photo link, a name, an e-mail and a password); the 1 MB of the other routes
 * would only be work for an attacker to hand us before we refuse.
 */
export const AUTH_BODY_LIMIT = '16kb';

const tags = ['Auth'];

export const authEndpoints = [
  defineEndpoint({
    method: 'post',
    path: '/api/auth/register',
    operationId: 'register',
    tags,
    summary: 'Sign up',
    description:
      'Creates a member account, or an admin account when `adminInviteToken` is the right code ' +
      "(a wrong code is a 400). With `invite` (an invitation link's token) the role is the " +
      "invitation's, and the link is used up (400 `invalid_invite` once used, revoked or " +
      'expired; 400 `invite_email_mismatch` for another address than the one it names). With ' +
      'SIGNUP_MODE=invite, a sign-up with neither is refused (403 `signup_invite_only`). ' +
      'Limited per IP address.',
    access: 'anyone',
    // The per-IP limit before the body is read; the invite-code counts read the body.
    before: ({ limits }) => [limits.signUp.perIp],
    body: { schema: registerSchema, id: 'RegisterInput', limit: AUTH_BODY_LIMIT },
    afterBody: ({ limits }) => limits.signUp.failures,
    status: 201,
    responses: {
      201: ok('The new user, signed in.', authResponseSchema),
      403: errorResponse('SignupInviteOnly', 'Sign-up is by invitation only (SIGNUP_MODE=invite).'),
      409: errors[409],
      429: errors[429],
      503: errors[503],
    },
    handler: ({ services, body, req }) => services.auth.register(withStoredImagePath(body, req)),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    tags,
    summary: 'Sign in',
    description: 'Limited per IP address.',
    access: 'anyone',
    before: ({ limits }) => [limits.signIn.perIp],
    body: { schema: loginSchema, id: 'LoginInput', limit: AUTH_BODY_LIMIT },
    afterBody: ({ limits }) => limits.signIn.failures,
    responses: {
      200: ok('The user, signed in.', authResponseSchema),
      401: errorResponse('InvalidCredentials', 'Unknown e-mail address or wrong password.'),
      403: errorResponse(
        'AccountDeactivated',
        'The password is right but an admin deactivated the account (`account_deactivated`).',
      ),
      429: errors[429],
      503: errors[503],
    },
    handler: ({ services, body }) => services.auth.login(body),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/auth/logout',
    operationId: 'logout',
    tags,
    summary: 'Sign out',
    description:
      'Ends the token this request carries, on the server: it is refused from then on. The ' +
      "user's other sessions stay signed in.",
    access: 'signed-in',
    responses: { 200: ok('The token is ended.', messageResponseSchema) },
    handler: async ({ services, user, req }) => {
      await services.auth.logout(user.id, currentToken(req));
      return { message: apiMessages.loggedOut };
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/auth/profile',
    operationId: 'getProfile',
    tags,
    summary: 'The signed-in user',
    access: 'signed-in',
    responses: { 200: ok('The current user.', userSchema) },
    handler: ({ services, user }) => services.users.getOwn(user.id),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/auth/profile',
    operationId: 'updateProfile',
    tags,
    summary: 'Edit your own profile',
    description:
      'Name, photo, e-mail and password. A new e-mail or password needs `currentPassword` (an ' +
      'e-mail another account uses is a 409); a new password ends every other session; the ' +
      'answer carries a fresh token. Limited per user; 10 wrong current passwords per 15 ' +
      'minutes, then 429 even for the right one.',
    access: 'signed-in',
    before: ({ limits }) => [limits.profile.perUser],
    body: { schema: updateProfileSchema, id: 'UpdateProfileInput', limit: AUTH_BODY_LIMIT },
    afterBody: ({ limits }) => limits.profile.failures,
    responses: {
      200: ok('The updated user with a fresh token.', authResponseSchema),
      409: errors[409],
      429: errors[429],
      503: errors[503],
    },
    handler: ({ services, user, body, req }) =>
      services.auth.updateProfile(user.id, withStoredImagePath(body, req)),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/auth/logout-all',
    operationId: 'logoutAll',
    tags,
    summary: 'Sign out everywhere',
    description: 'Ends every session of the caller, this one included.',
    access: 'signed-in',
    responses: { 200: ok('Every token of the caller is ended.', messageResponseSchema) },
    handler: async ({ services, user }) => {
      await services.auth.logoutAll(user.id);
      return { message: apiMessages.loggedOutEverywhere };
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/auth/options',
    operationId: 'getAuthOptions',
    tags,
    summary: 'How this server lets people in',
    description: 'Open or invitation-only sign-up, and whether a password can be reset by e-mail.',
    access: 'anyone',
    responses: { 200: ok('The sign-up mode and reset options.', authOptionsSchema) },
    handler: ({ services }) => services.auth.authOptions(),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/auth/password-reset/request',
    operationId: 'requestPasswordReset',
    tags,
    summary: 'Forgot password: send a reset link',
    description:
      'With e-mail set up (SMTP_URL), a single-use link valid one hour goes to the address if an ' +
      'active account uses it. The answer is the same whether or not one does, and comes before ' +
      'the address is looked up, so its timing tells nothing either. Limited per IP ' +
      'address and per e-mail address.',
    access: 'anyone',
    before: ({ limits }) => [limits.passwordReset.perIp],
    body: {
      schema: passwordResetRequestSchema,
      id: 'PasswordResetRequest',
      limit: AUTH_BODY_LIMIT,
    },
    afterBody: ({ limits }) => [limits.passwordReset.perAccount],
    responses: { 200: ok('Always the same answer.', messageResponseSchema), 429: errors[429] },
    handler: ({ services, body, req }) => {
      services.auth.requestPasswordReset(body.email, req.acceptsLanguages(...LANGUAGES));
      return { message: apiMessages.passwordResetRequested };
    },
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    operationId: 'confirmPasswordReset',
    tags,
    summary: 'Set a new password with a reset link',
    description:
      'The link works once (400 `invalid_reset_token` when used or expired); the new password ' +
      'follows the sign-up rules, and every session of the person ends. Limited per IP address.',
    access: 'anyone',
    before: ({ limits }) => [limits.passwordReset.confirm],
    body: {
      schema: passwordResetConfirmSchema,
      id: 'PasswordResetConfirm',
      limit: AUTH_BODY_LIMIT,
    },
    responses: {
      200: ok('The password is set.', messageResponseSchema),
      429: errors[429],
      503: errors[503],
    },
    handler: async ({ services, body }) => {
      await services.auth.confirmPasswordReset(body);
      return { message: apiMessages.passwordResetDone };
    },
  }),
];
