import { apiMessages, messageResponseSchema, taskFileSchema } from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { BadRequest } from '../errors.js';
import { binary, errorResponse, errors, ok } from '../openapi/responses.js';

const tags = ['Files'];
const fileId = { id: { notFound: apiMessages.fileNotFound, description: 'The file id' } };

export const fileEndpoints = [
  defineEndpoint({
    method: 'post',
    path: '/api/tasks/{id}/files',
    operationId: 'uploadTaskFile',
    tags,
    summary: 'Attach a file to a task',
    description:
      'Admins and assignees. One file in the multipart field `file`, at most MAX_FILE_MB ' +
      '(default 25 MB; 413 beyond). Stored in the database a chunk at a time (see ' +
      'docs/decisions/006-task-files.md); listed in the task answer under `files`.',
    access: 'task-viewer',
    params: { id: { notFound: apiMessages.taskNotFound, description: 'The task id' } },
    before: ({ receiveTaskFile }) => [receiveTaskFile],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: {
                type: 'string',
                format: 'binary',
                contentMediaType: 'application/octet-stream',
              },
            },
            required: ['file'],
          },
        },
      },
    },
    status: 201,
    responses: {
      201: ok('The attached file.', taskFileSchema),
      400: errorResponse('FileMissing', 'No file in the multipart field `file`, or an empty file.'),
      404: errors[404],
      413: errors[413],
    },
    handler: ({ services, user, params, req }) => {
      const upload = req.taskFile;
      if (!upload) throw BadRequest(apiMessages.fileMissing);
      return services.files.attach(user, params.id, upload).catch(async (error: unknown) => {
        await services.files.discard(upload.id);
        throw error;
      });
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/files/{id}',
    operationId: 'downloadTaskFile',
    tags,
    summary: 'Download a file',
    description:
      'Anyone who can see its task. Always a download (`Content-Disposition: attachment`, the ' +
      'name as RFC 6266 `filename*`), with `X-Content-Type-Options: nosniff` and a sandboxing ' +
      'Content-Security-Policy, so that no uploaded file runs as a page of this site.',
    access: 'signed-in',
    params: fileId,
    responses: {
      200: {
        description: 'The file, as uploaded, with the content type it was uploaded with.',
        content: { 'application/octet-stream': binary('application/octet-stream') },
      },
      404: errors[404],
    },
    handler: async ({ services, user, params, req, res }) => {
      const { file, chunks } = await services.files.open(user, params.id);
      // Express's attachment() writes RFC 6266 (an ASCII filename and a UTF-8 filename*).
      res.attachment(file.name);
      res.set({
        'Content-Type': file.contentType,
        'Content-Length': String(file.size),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cache-Control': 'private, no-cache',
      });
      res.status(200);
      try {
        for await (const chunk of chunks()) {
          if (req.destroyed || res.destroyed) break;
          if (!res.write(chunk)) {
            await new Promise<void>((resolve) => {
              res.once('drain', resolve);
              res.once('close', resolve);
            });
          }
        }
        res.end();
      } catch (error) {
        // The headers are gone: all that can be said now is that the answer is cut short.
        res.destroy(error as Error);
      }
      return undefined;
    },
  }),
  defineEndpoint({
    method: 'delete',
    path: '/api/files/{id}',
    operationId: 'deleteTaskFile',
    tags,
    summary: 'Delete a file',
    description: 'Its uploader or an admin (403 for anyone else who can see its task).',
    access: 'signed-in',
    params: fileId,
    responses: {
      200: ok('Deleted.', messageResponseSchema),
      403: errors[403],
      404: errors[404],
    },
    handler: async ({ services, user, params }) => {
      await services.files.delete(user, params.id);
      return { message: apiMessages.fileDeleted };
    },
  }),
];
