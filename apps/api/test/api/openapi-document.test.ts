import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HTTP_METHODS,
  collectRefs,
  createSchemaValidator,
  operationsOf,
  registeredApiRoutes,
  resolvePointer,
  type OpenApiDoc,
  type ResponseObject,
} from '../helpers/openapi.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** The paths of the README's API table, plus health, readiness and the documentation itself. */
const EXPECTED_OPERATIONS = [
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'GET /api/auth/profile',
  'PUT /api/auth/profile',
  'POST /api/auth/upload-image',
  'GET /api/images/{id}',
  'GET /api/users',
  'POST /api/users',
  'GET /api/users/{id}',
  'PUT /api/users/{id}',
  'DELETE /api/users/{id}',
  // Running a team (issue 18).
  'PATCH /api/users/{id}',
  'POST /api/users/{id}/password-reset',
  'POST /api/auth/logout-all',
  'GET /api/auth/options',
  'POST /api/auth/password-reset/request',
  'POST /api/auth/password-reset/confirm',
  'POST /api/invites',
  'GET /api/invites',
  'GET /api/invites/lookup',
  'DELETE /api/invites/{id}',
  'GET /api/settings',
  'POST /api/settings/admin-invite-token',
  'GET /api/audit',
  'GET /api/tasks',
  'POST /api/tasks',
  'GET /api/tasks/{id}',
  'PUT /api/tasks/{id}',
  'DELETE /api/tasks/{id}',
  'PUT /api/tasks/{id}/todo',
  'PATCH /api/tasks/{id}/todo/{itemId}',
  'PUT /api/tasks/{id}/status',
  // Working together on a task (issue 16).
  'POST /api/tasks/{id}/todo',
  'PUT /api/tasks/{id}/todo/order',
  'PUT /api/tasks/{id}/todo/{itemId}',
  'GET /api/tasks/{id}/activity',
  'GET /api/activity',
  'GET /api/tasks/{id}/comments',
  'POST /api/tasks/{id}/comments',
  'GET /api/tasks/{id}/people',
  'PUT /api/comments/{id}',
  'DELETE /api/comments/{id}',
  'POST /api/tasks/{id}/files',
  'GET /api/files/{id}',
  'DELETE /api/files/{id}',
  // Notifications and calendar feeds (issue 17).
  'GET /api/notifications',
  'GET /api/notifications/unread-count',
  'POST /api/notifications/read',
  'GET /api/notifications/preferences',
  'PUT /api/notifications/preferences',
  'GET /api/notifications/unsubscribe',
  'POST /api/notifications/unsubscribe',
  'GET /api/calendar/feed',
  'PUT /api/calendar/feed',
  'POST /api/calendar/feed/rotate',
  'GET /api/calendar/{secret}.ics',
  // Live updates (issue 17).
  'GET /api/events',
  'POST /api/events/ticket',
  'GET /api/labels',
  'POST /api/labels',
  'PUT /api/labels/{id}',
  'DELETE /api/labels/{id}',
  'GET /api/tasks/dashboard-data',
  'GET /api/tasks/user-dashboard-data',
  'GET /api/reports/export/tasks',
  'GET /api/reports/export/users',
  'GET /api/health',
  'GET /api/ready',
  'GET /api/openapi.json',
  'GET /api/docs',
];

const PUBLIC_OPERATIONS = new Set([
  'register',
  'login',
  'uploadImage',
  'getImage',
  'getHealth',
  'getReadiness',
  'getOpenApiDocument',
  'getApiReference',
  'getAuthOptions',
  'requestPasswordReset',
  'confirmPasswordReset',
  'lookUpInvite',
  // The signed token or the secret address is the key (issue 17).
  'showUnsubscribe',
  'unsubscribe',
  'getCalendar',
]);

describe(`the OpenAPI document (${ENGINE})`, () => {
  let ctx: TestContext;
  let doc: OpenApiDoc;

  beforeAll(async () => {
    ctx = await createTestContext();
    const res = await ctx.api.get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body;
  });
  afterAll(() => ctx.close());

  const operations = () => operationsOf(doc);

  it('is an OpenAPI 3.1 document with the basic fields', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe('Task Manager API');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const allowedTopLevel = [
      'openapi',
      'info',
      'jsonSchemaDialect',
      'servers',
      'paths',
      'webhooks',
      'components',
      'security',
      'tags',
      'externalDocs',
    ];
    for (const key of Object.keys(doc)) {
      expect(allowedTopLevel.includes(key) || key.startsWith('x-'), key).toBe(true);
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\/api\//);
      for (const key of Object.keys(item)) {
        expect([...HTTP_METHODS, 'summary', 'description', 'parameters', 'servers'], key).toContain(
          key,
        );
      }
    }
  });

  it('documents exactly the operations of the API table, health checks and itself', () => {
    const documented = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(documented.sort()).toEqual([...EXPECTED_OPERATIONS].sort());
  });

  it('documents every route the app registers, and no route it does not have', () => {
    const registered = registeredApiRoutes(ctx.app);
    // The walk must see the app's routes at all, or the comparison below proves nothing.
    expect(registered).toContain('GET /api/tasks/{id}');
    expect(registered).toContain('PUT /api/users/{id}');
    const documented = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('would notice a route added without documentation, mounted or not', async () => {
    const other = await createTestContext();
    try {
      const extra = express.Router();
      extra.delete('/:taskId/notes/:noteId', (_req, res) => res.end());
      other.app.use('/api/tasks', extra);
      other.app.post('/api/undocumented', (_req, res) => res.end());
      expect(registeredApiRoutes(other.app)).toEqual(
        expect.arrayContaining([
          'DELETE /api/tasks/{taskId}/notes/{noteId}',
          'POST /api/undocumented',
        ]),
      );
    } finally {
      await other.close();
    }
  });

  it('gives every operation a unique operationId, a summary, a tag and responses', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-zA-Z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(((doc.tags ?? []) as Array<{ name: string }>).map((tag) => tag.name));
    for (const { method, path, operation } of operations()) {
      const where = `${method} ${path}`;
      expect((operation as { summary?: string }).summary, where).toEqual(expect.any(String));
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(tags, `${where}: tag ${tag}`).toContain(tag);
      const statuses = Object.keys(operation.responses);
      expect(statuses.length, where).toBeGreaterThan(0);
      expect(
        statuses.some((status) => /^2\d\d$/.test(status)),
        `${where}: a success`,
      ).toBe(true);
      for (const status of statuses) expect(status, where).toMatch(/^[1-5]\d\d$/);
    }
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\/(schemas|responses|parameters)\//);
      expect(resolvePointer(doc, ref), ref).toBeDefined();
    }
  });

  it('gives every response a description, and every JSON content a schema', () => {
    for (const { method, path, operation } of operations()) {
      for (const [status, entry] of Object.entries(operation.responses)) {
        const response = (
          '$ref' in entry ? resolvePointer(doc, entry.$ref) : entry
        ) as ResponseObject;
        const where = `${method} ${path} ${status}`;
        expect(response.description, where).toEqual(expect.any(String));
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(media.schema, `${where} ${type}`).toBeDefined();
        }
      }
    }
  });

  it('declares every path parameter of each template, as a required uuid', () => {
    for (const { method, path, operation } of operations()) {
      const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? []).filter((param) => param.in === 'path');
      expect(declared.map((param) => param.name).sort(), `${method} ${path}`).toEqual(inTemplate);
      for (const param of declared) {
        expect(param.required, `${path} ${param.name}`).toBe(true);
        expect(param.schema, `${path} ${param.name}`).toMatchObject({ format: 'uuid' });
      }
    }
  });

  it('documents the status query of the task list with every value it accepts', () => {
    const list = operations().find(({ operation }) => operation.operationId === 'listTasks');
    const status = list?.operation.parameters?.find((param) => param.in === 'query');
    expect(status).toMatchObject({ name: 'status' });
    const validate = createSchemaValidator(doc).validator(status!.schema!);
    for (const value of ['Pending', 'In Progress', 'Completed', 'All', '']) {
      expect(validate(value), value).toBe(true);
    }
    expect(validate('Done')).toBe(false);
  });

  it('secures signed-in operations with the bearer scheme and leaves public ones open', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.security).toBeUndefined();
    for (const { operation } of operations()) {
      const id = operation.operationId;
      if (PUBLIC_OPERATIONS.has(id)) {
        expect(operation.security, id).toBeUndefined();
        // Sign-in has its own 401 (wrong credentials), never the "no valid token" one.
        expect(operation.responses['401'], id).not.toEqual({
          $ref: '#/components/responses/Unauthorized',
        });
      } else {
        expect(operation.security, id).toEqual([{ bearerAuth: [] }]);
        expect(operation.responses['401'], id).toEqual({
          $ref: '#/components/responses/Unauthorized',
        });
      }
    }
  });

  it('has only schemas that compile as strict JSON Schema 2020-12', () => {
    const validator = createSchemaValidator(doc);
    expect(() => validator.compileAll()).not.toThrow();
    for (const { operation } of operations()) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        expect(() => validator.validator(media.schema!)).not.toThrow();
      }
    }
  });

  it('describes the answers as closed objects, so an undocumented field fails validation', () => {
    const validator = createSchemaValidator(doc);
    const task = validator.ajv.getSchema('openapi#/$defs/Task');
    expect(task).toBeDefined();
    expect(doc.components.schemas.Task).toMatchObject({ additionalProperties: false });
    expect(doc.components.schemas.User).toMatchObject({ additionalProperties: false });
    // A user answer with its password hash would not pass.
    const user = validator.ajv.getSchema('openapi#/$defs/User')!;
    const valid = {
      _id: '3f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
      name: 'Ann',
      email: 'ann@example.com',
      role: 'member',
      profileImageUrl: null,
      active: true,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    };
    expect(user(valid)).toBe(true);
    expect(user({ ...valid, password_hash: '$2b$04$abc' })).toBe(false);
    expect(user({ ...valid, createdAt: 'yesterday' })).toBe(false);
  });

  it('answers the reports and images with their binary media types', () => {
    const byId = new Map(operations().map(({ operation }) => [operation.operationId, operation]));
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    for (const id of ['exportTasksReport', 'exportUsersReport']) {
      const ok = byId.get(id)?.responses['200'] as ResponseObject;
      expect(Object.keys(ok.content ?? {}), id).toEqual([xlsx]);
      expect(ok.content?.[xlsx]?.schema).toMatchObject({ type: 'string', format: 'binary' });
    }
    const image = byId.get('getImage')?.responses['200'] as ResponseObject;
    expect(Object.keys(image.content ?? {}).sort()).toEqual(
      ['image/gif', 'image/jpeg', 'image/png', 'image/webp'].sort(),
    );
    const upload = byId.get('uploadImage')?.requestBody?.content['multipart/form-data'];
    expect(upload?.schema).toMatchObject({
      type: 'object',
      required: ['image'],
      properties: { image: { type: 'string', format: 'binary' } },
    });
  });
});
