import {
  apiMessages,
  createLabelSchema,
  labelListSchema,
  labelSchema,
  messageResponseSchema,
  updateLabelSchema,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { errors, ok } from '../openapi/responses.js';

const labelId = { id: { notFound: apiMessages.labelNotFound, description: 'The label id' } };
const tags = ['Labels'];

export const labelEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/labels',
    operationId: 'listLabels',
    tags,
    summary: 'Every label',
    access: 'signed-in',
    responses: { 200: ok('Every label, by name.', labelListSchema) },
    handler: ({ services }) => services.labels.list(),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/labels',
    operationId: 'createLabel',
    tags,
    summary: 'Create a label',
    description: 'Names are unique whatever their case (409 otherwise).',
    access: 'admin',
    body: { schema: createLabelSchema, id: 'CreateLabelInput' },
    status: 201,
    responses: { 201: ok('The new label.', labelSchema), 409: errors[409] },
    handler: ({ services, body }) => services.labels.create(body),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/labels/{id}',
    operationId: 'updateLabel',
    tags,
    summary: 'Rename or recolor a label',
    access: 'admin',
    params: labelId,
    body: { schema: updateLabelSchema, id: 'UpdateLabelInput' },
    responses: { 200: ok('The label.', labelSchema), 404: errors[404], 409: errors[409] },
    handler: ({ services, params, body }) => services.labels.update(params.id, body),
  }),
  defineEndpoint({
    method: 'delete',
    path: '/api/labels/{id}',
    operationId: 'deleteLabel',
    tags,
    summary: 'Delete a label',
    description: 'The label is taken off every task that carried it.',
    access: 'admin',
    params: labelId,
    responses: { 200: ok('Deleted.', messageResponseSchema), 404: errors[404] },
    handler: async ({ services, params }) => {
      await services.labels.delete(params.id);
      return { message: apiMessages.labelDeleted };
    },
  }),
];
