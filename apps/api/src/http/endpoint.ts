import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Role } from '@task-manager/shared';
import type { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { Forbidden } from '../errors.js';
import { pathId } from './path-id.js';
import type { RequestUser } from './request-user.js';
import { compressAnswers, sendJson } from './compression.js';
import { JsonBody } from './json-text.js';
import { parseInput } from './validate.js';

/**
 * Who may call an endpoint. The router, the OpenAPI document and the permission and IDOR suites
 * all read it from the declaration:
 * - `anyone`: no sign-in (401 never applies);
 * - `signed-in`: any signed-in user (401 without a valid token);
 * - `admin`: admins only (401, then 403 for members);
 * - `task-viewer`: a signed-in user who can see the task named by `:id` (admins, and the members
 *   it is assigned to); anyone else gets the 404 of an unknown task, so ids never leak;
 * - `self-or-admin`: a signed-in user reading themself (`:id`), or an admin (403 otherwise).
 */
export type Access = 'anyone' | 'signed-in' | 'admin' | 'task-viewer' | 'self-or-admin';

/** A path parameter: always a UUID; anything else is answered 404 with `notFound`. */
export interface PathParam {
  notFound: string;
  description: string;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler gets: the parsed input, the caller, and the app's services. */
export interface EndpointContext<Services, Params extends string, Query, Body> {
  req: Request;
  res: Response;
  /** The signed-in caller (`anyone` endpoints: undefined). */
  user: RequestUser;
  params: Record<Params, string>;
  query: Query;
  body: Body;
  services: Services;
}

/** Where an endpoint's middleware comes from: built once per app (limiters, body parsers). */
export type MiddlewareFactory<Middleware> = (middleware: Middleware) => RequestHandler[];

/**
 * One endpoint, declared once next to its feature: method, path, who may call it, its input and
 * answer schemas, its documentation and its handler.
 */
export interface Endpoint<
  Services = unknown,
  Middleware = unknown,
  Params extends string = string,
  QuerySchema extends z.ZodType | undefined = z.ZodType | undefined,
  BodySchema extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** OpenAPI style: `/api/tasks/{id}`. */
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  access: Access;
  /**
   * For a `signed-in` endpoint: checks the caller instead of the bearer check (the event stream
   * also takes a single-use ticket); it sets `req.user` or answers 401.
   */
  authenticate?: MiddlewareFactory<Middleware>;
  params?: Record<Params, PathParam>;
  /** Parses `req.query`. */
  query?: QuerySchema;
  /** The query as documented, when it differs from what is parsed (numbers read from text). */
  queryDoc?: z.ZodObject;
  /** A JSON body: parsed with `schema`, documented as the component `id`. */
  body?: { schema: NonNullable<BodySchema>; id: string; limit?: string };
  /** A body that is not JSON (a multipart upload): documented as given, read by `before`. */
  requestBody?: { required: boolean; content: Record<string, unknown> };
  /** The success status (default 200). */
  status?: number;
  /**
   * Answers besides the ones `access` and `body` imply (401 and 403, 404 for task-viewer and
   * self-or-admin, 400 and 413 for a body): the success answer and any other error. One given
   * here replaces an implied one of the same status.
   */
  responses: Record<number, ZodOpenApiResponseObject>;
  /**
   * Middleware run after the access check and before the body is read (rate limits, an upload
   * parser), and after the JSON body is read (limits that count by what the body holds).
   */
  before?: MiddlewareFactory<Middleware>;
  afterBody?: MiddlewareFactory<Middleware>;
  /**
   * Answers the request: what it returns is sent as JSON with `status`; when it sends the answer
   * itself (a file, a stream), it returns undefined.
   */
  handler(
    ctx: EndpointContext<
      Services,
      Params,
      QuerySchema extends z.ZodType ? z.output<QuerySchema> : undefined,
      BodySchema extends z.ZodType ? z.output<BodySchema> : undefined
    >,
  ): unknown;
}

/**
 * Any endpoint, as lists hold them: declarations keep their exact types for their handler, and a
 * list only needs the shape (`any` lets a handler typed for one schema sit beside the others).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- see above */
export type AnyEndpoint<Services = any, Middleware = any> = Endpoint<
  Services,
  Middleware,
  string,
  any,
  any
>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Declares an endpoint, with the handler's input typed from the schemas. */
export function endpointsFor<Services, Middleware>() {
  return function defineEndpoint<
    Params extends string = never,
    QuerySchema extends z.ZodType | undefined = undefined,
    BodySchema extends z.ZodType | undefined = undefined,
  >(
    endpoint: Endpoint<Services, Middleware, Params, QuerySchema, BodySchema>,
  ): AnyEndpoint<Services, Middleware> {
    return endpoint as AnyEndpoint<Services, Middleware>;
  };
}

/** The Express path of an OpenAPI path: `{id}` becomes `:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The largest JSON body an endpoint takes unless it says otherwise. */
export const DEFAULT_BODY_LIMIT = '1mb';

export interface MountDeps<Services, Middleware> {
  services: Services;
  middleware: Middleware;
  /** Checks the token and loads the caller (401 otherwise). */
  requireAuth: RequestHandler;
  /** After requireAuth: 403 unless the caller has this role. */
  requireRole(role: Role): RequestHandler;
}

/**
 * A router serving `endpoints` in the order given (fixed paths before `{id}` ones): for each,
 * the access check, its middleware, its JSON body parser (only then: a refused request is never
 * parsed), the parsing of params, query and body, and the handler.
 */
export function endpointRouter<Services, Middleware>(
  endpoints: ReadonlyArray<AnyEndpoint<Services, Middleware>>,
  deps: MountDeps<Services, Middleware>,
): Router {
  const router = Router();
  const parsers = new Map<string, RequestHandler>();
  const jsonParser = (limit: string) => {
    let parser = parsers.get(limit);
    if (!parser) parsers.set(limit, (parser = express.json({ limit })));
    return parser;
  };
  const requireAdmin = deps.requireRole('admin');
  // Before the id is checked: a member asking for anyone else is refused as such, whatever the id.
  const requireSelfOrAdmin: RequestHandler = (req, _res, next) => {
    if (req.user?.role !== 'admin' && req.user?.id !== req.params.id) throw Forbidden();
    next();
  };

  for (const endpoint of endpoints) {
    const access: RequestHandler[] = {
      anyone: [],
      'signed-in': endpoint.authenticate?.(deps.middleware) ?? [deps.requireAuth],
      admin: [deps.requireAuth, requireAdmin],
      // The service finds the task within what the caller may see (404 otherwise).
      'task-viewer': [deps.requireAuth],
      'self-or-admin': [deps.requireAuth, requireSelfOrAdmin],
    }[endpoint.access];
    const handlers: RequestHandler[] = [
      ...access,
      ...(endpoint.before?.(deps.middleware) ?? []),
      ...(endpoint.body ? [jsonParser(endpoint.body.limit ?? DEFAULT_BODY_LIMIT)] : []),
      ...(endpoint.afterBody?.(deps.middleware) ?? []),
      ...(answersJson(endpoint) ? [] : [compressAnswers()]),
      async (req, res) => {
        const params = parseParams(endpoint, req);
        const query = endpoint.query ? parseInput(endpoint.query, req.query) : undefined;
        const body = endpoint.body ? parseInput(endpoint.body.schema, req.body) : undefined;
        const result: unknown = await endpoint.handler({
          req,
          res,
          user: req.user!,
          params,
          query,
          body,
          services: deps.services,
        });
        if (result === undefined) return;
        res.status(endpoint.status ?? 200);
        if (!res.get('Content-Type')) res.type('application/json');
        sendJson(req, res, result instanceof JsonBody ? result.json : JSON.stringify(result));
      },
    ];
    router[endpoint.method](expressPath(endpoint.path), ...handlers);
  }
  return router;
}

/**
 * True when the endpoint's success answer is JSON only (application/json or a +json type): it
 * goes out through sendJson, which compresses it. Any other answer (a file, a feed, a page, an
 * event stream) is written by its handler through the compression middleware.
 */
export function answersJson(endpoint: AnyEndpoint): boolean {
  const content = endpoint.responses[endpoint.status ?? 200]?.content;
  const types = Object.keys(content ?? {});
  return types.length > 0 && types.every((type) => /^application\/(.+\+)?json$/.test(type));
}

/** The path's ids: each must be a UUID, or it names nothing (see pathId). */
function parseParams(endpoint: AnyEndpoint, req: Request): Record<string, string> {
  const declared = Object.entries(endpoint.params ?? {}) as Array<[string, PathParam]>;
  return Object.fromEntries(
    declared.map(([name, param]) => [name, pathId(req, param.notFound, name)]),
  );
}
