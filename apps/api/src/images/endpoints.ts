import { apiMessages, imageUploadResponseSchema } from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { BadRequest } from '../errors.js';
import { binary, errorResponse, errors, ok } from '../openapi/responses.js';
import { imagePath } from './links.js';
import {
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_STORED_IMAGE_BYTES,
  MAX_UNCLAIMED_IMAGE_BYTES,
  UNCLAIMED_IMAGE_GRACE_MS,
} from './service.js';

export const imageEndpoints = [
  defineEndpoint({
    method: 'post',
    path: '/api/auth/upload-image',
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
    access: 'anyone',
    // Before the body is read: the per-IP limit, then the quota (a full quota costs the client
    // its upload, not us a decode).
    before: ({ limits, uploadQuota, receiveImage }) => [limits.upload, uploadQuota, receiveImage],
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
    handler: async ({ services, req }) => {
      // An empty file part is no image either (and sharp refuses an empty buffer outright).
      if (!req.file || req.file.size === 0) throw BadRequest(apiMessages.imageRequired);
      const image = await services.images.store(req.file.buffer);
      // Relative: the address is this server's whatever the Host header said.
      return { imageUrl: imagePath(image.id) };
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/images/{id}',
    operationId: 'getImage',
    tags: ['Images'],
    summary: 'A stored image',
    description: 'Public and immutable: cached for a year.',
    access: 'anyone',
    params: { id: { notFound: apiMessages.imageNotFound, description: 'The image id' } },
    responses: {
      200: {
        description:
          'The image: WebP for uploads since 2026-11-25; older ones keep the type they were stored in.',
        content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, binary(type)])),
      },
      404: errors[404],
    },
    handler: async ({ services, params, res }) => {
      const image = await services.images.get(params.id);
      res.set({
        'Content-Type': image.contentType,
        // An image's bytes never change under its id.
        'Cache-Control': 'public, max-age=31536000, immutable',
        // Profile photos are shown by clients on other origins too.
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
      res.send(image.data);
      return undefined;
    },
  }),
];
