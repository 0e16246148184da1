import {
  apiMessages,
  authResponseSchema,
  loginSchema,
  messageResponseSchema,
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
      '(a wrong code is a 400). Limited per IP address.',
    access: 'anyone',
    // The per-IP limit before the body is read; the invite-code counts read the body.
    before: ({ limits }) => [limits.signUp.perIp],
    body: { schema: registerSchema, id: 'RegisterInput', limit: AUTH_BODY_LIMIT },
    afterBody: ({ limits }) => limits.signUp.failures,
    status: 201,
    responses: {
      201: ok('The new user, signed in.', authResponseSchema),
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
    handler: ({ services, user }) => services.users.get(user.id),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/auth/profile',
    operationId: 'updateProfile',
    tags,
    summary: 'Edit your own profile',
    description:
      'Name, photo and password. A new password needs `currentPassword` and ends every ' +
      'other session; the answer carries a fresh token. Limited per user; 10 wrong current ' +
      'passwords per 15 minutes, then 429 even for the right one.',
    access: 'signed-in',
    before: ({ limits }) => [limits.profile.perUser],
    body: { schema: updateProfileSchema, id: 'UpdateProfileInput', limit: AUTH_BODY_LIMIT },
    afterBody: ({ limits }) => limits.profile.failures,
    responses: {
      200: ok('The updated user with a fresh token.', authResponseSchema),
      429: errors[429],
      503: errors[503],
    },
    handler: ({ services, user, body, req }) =>
      services.auth.updateProfile(user.id, withStoredImagePath(body, req)),
  }),
];
