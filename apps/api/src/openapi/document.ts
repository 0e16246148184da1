import fs from 'node:fs';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type oas31,
} from 'zod-openapi';
import {
  authResponseSchema,
  createTaskSchema,
  createUserSchema,
  dashboardResponseSchema,
  errorResponseSchema,
  imageUploadResponseSchema,
  loginSchema,
  messageResponseSchema,
  NEXT_CURSOR_HEADER,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  pageCursorSchema,
  registerSchema,
  taskListQuerySchema,
  taskListResponseSchema,
  taskMutationResponseSchema,
  taskSchema,
  updateChecklistItemSchema,
  updateChecklistSchema,
  updateProfileSchema,
  updateStatusSchema,
  updateTaskSchema,
  updateUserSchema,
  userListQuerySchema,
  userListResponseSchema,
  userSchema,
} from '@task-manager/shared';
import { READY_TIMEOUT_MS } from '../health/routes.js';
import {
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_STORED_IMAGE_BYTES,
  MAX_UNCLAIMED_IMAGE_BYTES,
  UNCLAIMED_IMAGE_GRACE_MS,
} from '../images/service.js';
import { XLSX_TYPE } from '../reports/routes.js';

/* Answers only the operations side of the API has, so they live here rather than in shared. */
const healthResponseSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The process is up.' });
const readyResponseSchema = z
  .object({ status: z.literal('ready') })
  .meta({ id: 'Ready', description: 'The process can serve requests: its database answers.' });

/** Ids are UUIDs; any other value names nothing and is answered 404, like an unknown id. */
const uuid = (description: string) => z.uuid().meta({ description });
const taskIdParams = z.object({ id: uuid('The task id') });
const userIdParams = z.object({ id: uuid('The user id') });

/** The paging parameters of the list endpoints (the shared schemas read them from query text). */
const paging = {
  limit: z
    .int()
    .min(1)
    .max(PAGE_LIMIT_MAX)
    .default(PAGE_LIMIT_DEFAULT)
    .meta({ description: 'How many items per page' }),
  cursor: pageCursorSchema.meta({
    description: 'Where the page starts: the cursor the previous page ended with; none: the first',
  }),
};

const binary = (contentMediaType: string) => ({
  schema: { type: 'string', format: 'binary', contentMediaType } satisfies oas31.SchemaObject,
});
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const attachment = z.object({
  'Content-Disposition': z
    .string()
    .regex(/^attachment; filename="[\w.-]+\.xlsx"$/)
    .meta({ description: 'Saves the answer as the named file' }),
});

/** The error answers: one component each, all `{message, errors?}`. */
const errorResponse = (id: string, description: string): ZodOpenApiResponseObject => ({
  id,
  description,
  content: json(errorResponseSchema),
});
const errors = {
  400: errorResponse(
    'ValidationError',
    'Invalid input: `message` is the first problem, `errors` lists every one (`{path, message}`). ' +
      'Malformed JSON and a body that is no JSON object get a `message` only.',
  ),
  401: errorResponse('Unauthorized', 'No valid token: missing, expired, or no longer valid.'),
  403: errorResponse('Forbidden', 'Signed in, but not allowed (admins only).'),
  404: errorResponse('NotFound', 'No such resource, or one the caller may not see.'),
  409: errorResponse('Conflict', 'The change conflicts with existing data.'),
  413: errorResponse('PayloadTooLarge', 'The request body is too large.'),
  429: {
    ...errorResponse(
      'TooManyRequests',
      'Too many requests from this address: wait for `Retry-After` seconds.',
    ),
    headers: z.object({
      'Retry-After': z
        .string()
        .regex(/^\d+$/)
        .meta({ description: 'Seconds until the next request may be made' }),
    }),
  },
  503: {
    ...errorResponse(
      'ServiceUnavailable',
      'Not ready: the database does not answer, the server is shutting down, or it is saturated ' +
        'with password work for a moment: retry after `Retry-After` seconds when it is given.',
    ),
    headers: z.object({
      'Retry-After': z
        .string()
        .regex(/^\d+$/)
        .optional()
        .meta({ description: 'Seconds to wait before trying again' }),
    }),
  },
} satisfies Record<number, ZodOpenApiResponseObject>;

const bearer = [{ bearerAuth: [] }];

/** An operation that needs a signed-in caller: 401 always applies. */
function signedIn(operation: ZodOpenApiOperationObject): ZodOpenApiOperationObject {
  return {
    ...operation,
    security: bearer,
    responses: { ...operation.responses, 401: errors[401] },
  };
}

/** An operation only admins may call: 401 and 403 apply. */
function adminOnly(operation: ZodOpenApiOperationObject): ZodOpenApiOperationObject {
  return signedIn({ ...operation, responses: { ...operation.responses, 403: errors[403] } });
}

/** A JSON request body: invalid input is a 400, a body over 1 MB a 413. */
function withJsonBody(schema: z.ZodType, operation: ZodOpenApiOperationObject) {
  return {
    ...operation,
    requestBody: { required: true, content: json(schema) },
    responses: { ...operation.responses, 400: errors[400], 413: errors[413] },
  } satisfies ZodOpenApiOperationObject;
}

/** A request body schema as a named component (a copy: the shared schema stays as it is). */
const input = (id: string, schema: z.ZodType) => schema.meta({ id });

const ok = (description: string, schema: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  content: json(schema),
});

/** A spreadsheet download, saved as `fileName`. */
const workbook = (fileName: string): ZodOpenApiResponseObject => ({
  description: `The workbook \`${fileName}\`, as an attachment.`,
  headers: attachment,
  content: { [XLSX_TYPE]: binary(XLSX_TYPE) },
});

const paths: ZodOpenApiPathsObject = {
  '/api/auth/register': {
    post: withJsonBody(input('RegisterInput', registerSchema), {
      operationId: 'register',
      tags: ['Auth'],
      summary: 'Sign up',
      description:
        'Creates a member account, or an admin account when `adminInviteToken` is the right code ' +
        '(a wrong code is a 400). Limited per IP address.',
      responses: {
        201: ok('The new user, signed in.', authResponseSchema),
        409: errors[409],
        429: errors[429],
        503: errors[503],
      },
    }),
  },
  '/api/auth/login': {
    post: withJsonBody(input('LoginInput', loginSchema), {
      operationId: 'login',
      tags: ['Auth'],
      summary: 'Sign in',
      description: 'Limited per IP address.',
      responses: {
        200: ok('The user, signed in.', authResponseSchema),
        401: errorResponse('InvalidCredentials', 'Unknown e-mail address or wrong password.'),
        429: errors[429],
        503: errors[503],
      },
    }),
  },
  '/api/auth/logout': {
    post: signedIn({
      operationId: 'logout',
      tags: ['Auth'],
      summary: 'Sign out',
      description:
        'Ends the token this request carries, on the server: it is refused from then on. The ' +
        "user's other sessions stay signed in.",
      responses: { 200: ok('The token is ended.', messageResponseSchema) },
    }),
  },
  '/api/auth/profile': {
    get: signedIn({
      operationId: 'getProfile',
      tags: ['Auth'],
      summary: 'The signed-in user',
      responses: { 200: ok('The current user.', userSchema) },
    }),
    put: signedIn(
      withJsonBody(input('UpdateProfileInput', updateProfileSchema), {
        operationId: 'updateProfile',
        tags: ['Auth'],
        summary: 'Edit your own profile',
        description:
          'Name, photo and password. A new password needs `currentPassword` and ends every ' +
          'other session; the answer carries a fresh token. Limited per user; 10 wrong current ' +
          'passwords per 15 minutes, then 429 even for the right one.',
        responses: {
          200: ok('The updated user with a fresh token.', authResponseSchema),
          429: errors[429],
          503: errors[503],
        },
      }),
    ),
  },
  '/api/auth/upload-image': {
    post: {
      operationId: 'uploadImage',
      tags: ['Auth', 'Images'],
      summary: 'Upload a profile photo',
      description: `One file in the multipart field \`image\`: PNG, JPEG, WebP or GIF, at most ${
        MAX_IMAGE_BYTES / 1024 / 1024
      } MB. The image is re-encoded as WebP (at most ${MAX_IMAGE_SIDE} px a side, at most ${
        MAX_STORED_IMAGE_BYTES / 1024
      } KB) and stored; no sign-in needed (sign-up uses it). The answer is the relative path to send as \`profileImageUrl\`; an upload no user claims that way within ${
        UNCLAIMED_IMAGE_GRACE_MS / 3_600_000
      } hour is deleted. Limited per IP address, and 429 too while the uploads no user has claimed yet hold ${
        MAX_UNCLAIMED_IMAGE_BYTES / 1024 / 1024
      } MB together.`,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                image: {
                  type: 'string',
                  format: 'binary',
                  contentMediaType: 'application/octet-stream',
                },
              },
              required: ['image'],
            },
          },
        },
      },
      responses: {
        200: ok('Where the stored image is served.', imageUploadResponseSchema),
        400: errorResponse(
          'ImageRejected',
          'No file in `image`, an empty file, or not a PNG, JPEG, WebP or GIF image.',
        ),
        413: errors[413],
        429: errors[429],
      },
    },
  },
  '/api/images/{id}': {
    get: {
      operationId: 'getImage',
      tags: ['Images'],
      summary: 'A stored image',
      description: 'Public and immutable: cached for a year.',
      requestParams: { path: z.object({ id: uuid('The image id') }) },
      responses: {
        200: {
          description:
            'The image: WebP for uploads since 2026-11-25; older ones keep the type they were stored in.',
          content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, binary(type)])),
        },
        404: errors[404],
      },
    },
  },
  '/api/users': {
    get: adminOnly({
      operationId: 'listUsers',
      tags: ['Users'],
      summary: 'Members with their task counts',
      description: 'A page of members by name; `X-Next-Cursor` names the next page.',
      requestParams: {
        query: z.object({
          ...paging,
          search: userListQuerySchema.shape.search.meta({
            description: 'Only members whose name or e-mail contains this text, ignoring case',
          }),
        }),
      },
      responses: {
        200: {
          ...ok('A page of members, by name.', userListResponseSchema),
          headers: z.object({
            [NEXT_CURSOR_HEADER]: z.string().optional().meta({
              description: 'Send as `cursor` for the next page; absent on the last page',
            }),
          }),
        },
        400: errors[400],
      },
    }),
    post: adminOnly(
      withJsonBody(input('CreateUserInput', createUserSchema), {
        operationId: 'createUser',
        tags: ['Users'],
        summary: 'Create a member or an admin',
        responses: { 201: ok('The new user.', userSchema), 409: errors[409], 503: errors[503] },
      }),
    ),
  },
  '/api/users/{id}': {
    get: signedIn({
      operationId: 'getUser',
      tags: ['Users'],
      summary: 'One user',
      description: 'Admins may read anyone; a member only themself.',
      requestParams: { path: userIdParams },
      responses: {
        200: ok('The user.', userSchema),
        403: errorResponse('NotYourself', 'A member asked for another user.'),
        404: errors[404],
      },
    }),
    put: adminOnly(
      withJsonBody(input('UpdateUserInput', updateUserSchema), {
        operationId: 'updateUser',
        tags: ['Users'],
        summary: 'Edit a user',
        description:
          'Any non-empty subset of the fields. A role or password change signs that user out ' +
          'everywhere. An admin changes their own password only through the profile (400); the ' +
          'last admin cannot become a member (409).',
        requestParams: { path: userIdParams },
        responses: {
          200: ok('The updated user.', userSchema),
          404: errors[404],
          409: errors[409],
          503: errors[503],
        },
      }),
    ),
    delete: adminOnly({
      operationId: 'deleteUser',
      tags: ['Users'],
      summary: 'Delete a user',
      description: 'Never the last admin (409).',
      requestParams: { path: userIdParams },
      responses: {
        200: ok('Deleted.', messageResponseSchema),
        404: errors[404],
        409: errors[409],
      },
    }),
  },
  '/api/tasks': {
    get: signedIn({
      operationId: 'listTasks',
      tags: ['Tasks'],
      summary: 'Tasks, newest first',
      description: 'Admins see every task, members the tasks assigned to them.',
      requestParams: {
        query: z.object({
          status: taskListQuerySchema.shape.status.meta({
            description: 'Only tasks with this status; empty or `All`: every status',
          }),
          ...paging,
        }),
      },
      responses: {
        200: ok(
          'A page of tasks, the counts by status and the next cursor.',
          taskListResponseSchema,
        ),
        400: errors[400],
      },
    }),
    post: adminOnly(
      withJsonBody(input('CreateTaskInput', createTaskSchema), {
        operationId: 'createTask',
        tags: ['Tasks'],
        summary: 'Create a task',
        responses: { 201: ok('Created.', taskMutationResponseSchema) },
      }),
    ),
  },
  '/api/tasks/dashboard-data': {
    get: adminOnly({
      operationId: 'getDashboard',
      tags: ['Dashboards'],
      summary: 'Dashboard over every task',
      responses: { 200: ok('Statistics, charts and the newest tasks.', dashboardResponseSchema) },
    }),
  },
  '/api/tasks/user-dashboard-data': {
    get: signedIn({
      operationId: 'getMyDashboard',
      tags: ['Dashboards'],
      summary: "Dashboard over the caller's own tasks",
      responses: { 200: ok('Statistics, charts and the newest tasks.', dashboardResponseSchema) },
    }),
  },
  '/api/tasks/{id}': {
    get: signedIn({
      operationId: 'getTask',
      tags: ['Tasks'],
      summary: 'One task',
      description: 'A member who is not assigned gets 404, as for an unknown id.',
      requestParams: { path: taskIdParams },
      responses: { 200: ok('The task.', taskSchema), 404: errors[404] },
    }),
    put: adminOnly(
      withJsonBody(input('UpdateTaskInput', updateTaskSchema), {
        operationId: 'updateTask',
        tags: ['Tasks'],
        summary: 'Edit a task',
        description: 'Any non-empty subset of the fields.',
        requestParams: { path: taskIdParams },
        responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
      }),
    ),
    delete: adminOnly({
      operationId: 'deleteTask',
      tags: ['Tasks'],
      summary: 'Delete a task',
      requestParams: { path: taskIdParams },
      responses: { 200: ok('Deleted.', messageResponseSchema), 404: errors[404] },
    }),
  },
  '/api/tasks/{id}/todo': {
    put: signedIn(
      withJsonBody(input('UpdateChecklistInput', updateChecklistSchema), {
        operationId: 'updateChecklist',
        tags: ['Tasks'],
        summary: 'Replace the checklist',
        description:
          'Admins and assignees. Members may only tick and untick the existing items (400 ' +
          'otherwise). Progress and status follow the checklist.',
        requestParams: { path: taskIdParams },
        responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
      }),
    ),
  },
  '/api/tasks/{id}/todo/{itemId}': {
    patch: signedIn(
      withJsonBody(input('UpdateChecklistItemInput', updateChecklistItemSchema), {
        operationId: 'updateChecklistItem',
        tags: ['Tasks'],
        summary: 'Tick or untick one checklist item',
        description: 'Admins and assignees. Progress and status follow the checklist.',
        requestParams: {
          path: z.object({ id: uuid('The task id'), itemId: uuid('The checklist item id') }),
        },
        responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
      }),
    ),
  },
  '/api/tasks/{id}/status': {
    put: signedIn(
      withJsonBody(input('UpdateStatusInput', updateStatusSchema), {
        operationId: 'updateTaskStatus',
        tags: ['Tasks'],
        summary: 'Set the status',
        description:
          'Admins and assignees. Completed ticks every item, Pending unticks them; In Progress ' +
          'only while some but not all items are done (400 otherwise).',
        requestParams: { path: taskIdParams },
        responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
      }),
    ),
  },
  '/api/reports/export/tasks': {
    get: adminOnly({
      operationId: 'exportTasksReport',
      tags: ['Reports'],
      summary: 'Every task as a spreadsheet',
      responses: { 200: workbook('tasks_report.xlsx') },
    }),
  },
  '/api/reports/export/users': {
    get: adminOnly({
      operationId: 'exportUsersReport',
      tags: ['Reports'],
      summary: 'Every member with their task counts as a spreadsheet',
      responses: { 200: workbook('user_details.xlsx') },
    }),
  },
  '/api/health': {
    get: {
      operationId: 'getHealth',
      tags: ['Operations'],
      summary: 'Liveness',
      responses: { 200: ok('The process is up.', healthResponseSchema) },
    },
  },
  '/api/ready': {
    get: {
      operationId: 'getReadiness',
      tags: ['Operations'],
      summary: 'Readiness',
      description:
        `Ready while the database answers (within ${READY_TIMEOUT_MS / 1000} s) and the server ` +
        'is not shutting down; load balancers should route to this process only then.',
      responses: { 200: ok('Ready.', readyResponseSchema), 503: errors[503] },
    },
  },
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
      { name: 'Dashboards', description: 'Statistics and charts' },
      { name: 'Reports', description: 'Excel exports (admins)' },
      { name: 'Images', description: 'Profile photos' },
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
    paths,
  });
}
