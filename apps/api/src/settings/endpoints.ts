import { adminInviteTokenResponseSchema, settingsSchema } from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { ok } from '../openapi/responses.js';

const tags = ['Settings'];

export const settingsEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/settings',
    operationId: 'getSettings',
    tags,
    summary: 'Sign-up settings',
    description: 'The sign-up mode (SIGNUP_MODE) and the current 6-digit admin invite code.',
    access: 'admin',
    responses: { 200: ok('The settings.', settingsSchema) },
    handler: ({ services }) => services.settings.get(),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/settings/admin-invite-token',
    operationId: 'rotateAdminInviteToken',
    tags,
    summary: 'A new admin invite code',
    description:
      'The old code stops working at once, in every API process. Recorded in the audit log ' +
      '(without the code).',
    access: 'admin',
    responses: { 200: ok('The new code.', adminInviteTokenResponseSchema) },
    handler: ({ services, user }) => services.settings.rotateAdminInviteToken(user.id),
  }),
];
