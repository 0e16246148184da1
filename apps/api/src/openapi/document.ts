import fs from 'node:fs';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { apiEndpoints } from '../endpoints.js';
import { pathsOf } from './operations.js';

/** The two paths of the documentation itself (served by openapi/routes.ts). */
const documentationPaths: ZodOpenApiPathsObject = {
  '/api/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['Operations'],
      summary: 'This document',
      responses: {
        200: {
          description: 'The OpenAPI 3.1 document of this API.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
  '/api/docs': {
    get: {
      operationId: 'getApiReference',
      tags: ['Operations'],
      summary: 'Interactive reference of this document',
      responses: {
        200: {
          description: 'An HTML page (Swagger UI).',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
      },
    },
  },
};

function readVersion(): string {
  const packageJson = new URL('../../package.json', import.meta.url);
  return (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

export type OpenApiDocument = ReturnType<typeof createDocument>;

let built: OpenApiDocument | undefined;

/** The document, built on first use (at start-up, by createApp) and then kept. */
export function openApiDocument(): OpenApiDocument {
  built ??= createOpenApiDocument();
  return built;
}

/** The OpenAPI 3.1 document of the whole API, generated from the shared zod schemas. */
export function createOpenApiDocument(): OpenApiDocument {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Task Manager API',
      version: readVersion(),
      description:
        'Every object has its id as `_id`; dates are ISO 8601. All paths also accept a trailing ' +
        'slash. Signed-in calls carry `Authorization: Bearer <token>` (from sign-up or sign-in).',
    },
    tags: [
      { name: 'Auth', description: 'Sign-up, sign-in and your own profile' },
      { name: 'Users', description: 'Team members (admins)' },
      { name: 'Tasks', description: 'Tasks, their checklists and status' },
      { name: 'Labels', description: 'Labels tasks can carry (admins write them)' },
      { name: 'Dashboards', description: 'Statistics and charts' },
      { name: 'Reports', description: 'Excel exports (admins)' },
      { name: 'Images', description: 'Profile photos' },
      { name: 'Invitations', description: 'Invitation links to sign up (admins)' },
      { name: 'Settings', description: 'Sign-up settings (admins)' },
      { name: 'Audit', description: 'The log of admin changes (admins)' },
      { name: 'Activity', description: 'What happened to tasks, change by change' },
      { name: 'Comments', description: 'Comments on tasks, with mentions' },
      { name: 'Files', description: 'Files attached to tasks' },
      { name: 'Notifications', description: 'What people are told about, and their e-mail' },
      { name: 'Calendar', description: 'Secret iCalendar feeds of due dates' },
      { name: 'Live updates', description: 'Server-Sent Events of changes the caller may see' },
      { name: 'Operations', description: 'Health checks and this documentation' },
    ],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The `token` of a sign-up, sign-in or profile update answer.',
        },
      },
    },
    paths: { ...pathsOf(apiEndpoints), ...documentationPaths },
  });
}
