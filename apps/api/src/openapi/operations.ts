import { z } from 'zod';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiPathsObject,
  ZodOpenApiResponseObject,
} from 'zod-openapi';
import type { Access, AnyEndpoint } from '../http/endpoint.js';
import { errors, json } from './responses.js';

const bearer = [{ bearerAuth: [] }];

/** The answers an endpoint's access implies: who is refused, and how. */
const IMPLIED_BY_ACCESS: Record<Access, Record<number, ZodOpenApiResponseObject>> = {
  anyone: {},
  'signed-in': { 401: errors[401] },
  admin: { 401: errors[401], 403: errors[403] },
  'task-viewer': { 401: errors[401], 404: errors[404] },
  'self-or-admin': { 401: errors[401], 403: errors[403], 404: errors[404] },
};

/** The OpenAPI operation of one endpoint declaration. */
export function operationOf(endpoint: AnyEndpoint): ZodOpenApiOperationObject {
  const params = Object.entries(endpoint.params ?? {}) as Array<[string, { description: string }]>;
  const requestParams = {
    ...(params.length > 0 && {
      path: z.object(
        Object.fromEntries(
          params.map(([name, { description }]) => [name, z.uuid().meta({ description })]),
        ),
      ),
    }),
    ...(endpoint.queryDoc && { query: endpoint.queryDoc }),
  };
  const requestBody = endpoint.body
    ? { required: true, content: json(endpoint.body.schema.meta({ id: endpoint.body.id })) }
    : endpoint.requestBody;
  return {
    operationId: endpoint.operationId,
    tags: endpoint.tags,
    summary: endpoint.summary,
    ...(endpoint.description !== undefined && { description: endpoint.description }),
    ...(endpoint.access !== 'anyone' && { security: bearer }),
    ...(Object.keys(requestParams).length > 0 && { requestParams }),
    ...(requestBody && { requestBody }),
    responses: {
      ...IMPLIED_BY_ACCESS[endpoint.access],
      ...(endpoint.body && { 400: errors[400], 413: errors[413] }),
      ...endpoint.responses,
    },
  } as ZodOpenApiOperationObject;
}

/** The document's paths: every endpoint under its path and method. */
export function pathsOf(endpoints: readonly AnyEndpoint[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method]: operationOf(endpoint) };
  }
  return paths;
}
