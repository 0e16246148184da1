import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Express } from 'express';
import type { Response } from 'supertest';
import { expect } from 'vitest';

/** The parts of an OpenAPI 3.1 document the tests read; everything else stays `unknown`. */
export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, object>;
    responses: Record<string, object>;
    securitySchemes: Record<string, { type: string; scheme?: string }>;
  };
  [key: string]: unknown;
}

export interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: object }>;
  requestBody?: { content: Record<string, { schema?: object }> };
  responses: Record<string, ResponseObject | { $ref: string }>;
  tags?: string[];
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { required?: boolean; schema?: object }>;
  content?: Record<string, { schema?: object }>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Every operation of the document, with its method and path template. */
export function operationsOf(doc: OpenApiDoc) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation: operation as Operation })),
  );
}

/** Follows a local JSON pointer (`#/components/...`); undefined when it leads nowhere. */
export function resolvePointer(doc: object, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Every `$ref` in the document, wherever it is. */
export function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, found));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

interface RouterLayer {
  rawPath?: string | RegExp | Array<string | RegExp>;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/**
 * Every route the Express app registers under /api, as "METHOD /path/{param}", found by walking
 * its router stack (mounted routers included), so a route added without documentation shows up.
 */
export function registeredApiRoutes(app: Express): string[] {
  const found = new Set<string>();
  const join = (prefix: string, path: string) =>
    `${prefix}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = join(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}');
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') found.add(`${method.toUpperCase()} ${path}`);
        }
      } else if (layer.handle?.stack) {
        if (typeof layer.rawPath !== 'string') {
          throw new Error(`cannot read the mount path ${String(layer.rawPath)}`);
        }
        walk(layer.handle.stack, join(prefix, layer.rawPath));
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return [...found].filter((route) => /^\w+ \/api(\/|$)/.test(route)).sort();
}

/** Formats the schemas use; ajv knows none by itself. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** ajv for JSON Schema 2020-12 (OpenAPI 3.1's dialect), strict, holding the document's schemas. */
export function createSchemaValidator(doc: OpenApiDoc) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat('date-time', (value: string) => ISO_DATE_TIME.test(value) && !!Date.parse(value));
  ajv.addFormat('uuid', UUID);
  // Bytes, not JSON: the tests check their media type instead.
  ajv.addFormat('binary', true);
  const toLocal = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(toLocal);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string'
          ? value.replace('#/components/schemas/', 'openapi#/$defs/')
          : toLocal(value),
      ]),
    );
  };
  ajv.addSchema({ $id: 'openapi', $defs: toLocal(doc.components.schemas) as object });
  const compiled = new Map<object, ValidateFunction>();
  return {
    ajv,
    /** Compiles every component schema: throws on anything that is no valid JSON Schema. */
    compileAll() {
      for (const name of Object.keys(doc.components.schemas)) {
        const validate = ajv.getSchema(`openapi#/$defs/${name}`);
        if (!validate) throw new Error(`schema ${name} did not compile`);
      }
    },
    validator(schema: object): ValidateFunction {
      const known = compiled.get(schema);
      if (known) return known;
      const validate = ajv.compile(toLocal(schema) as object);
      compiled.set(schema, validate);
      return validate;
    },
  };
}

const templateMatcher = (template: string) =>
  new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);

/**
 * Checks real answers against the document: the status must be documented for the operation,
 * the content type must be one it lists, and a JSON body must match the schema given for both.
 * Remembers which (operation, status) pairs were seen, so a test can require all of them.
 */
export function createContractChecker(doc: OpenApiDoc) {
  const schemas = createSchemaValidator(doc);
  const seen = new Map<string, Set<string>>();
  const operations = operationsOf(doc).map((entry) => ({
    ...entry,
    matcher: templateMatcher(entry.path),
    params: (entry.path.match(/\{/g) ?? []).length,
  }));

  /** The operation a request went to: a fixed segment wins over a parameter (dashboard-data). */
  function operationFor(method: string, url: string) {
    const path = url.split('?')[0]!;
    const candidates = operations
      .filter((entry) => entry.method === method.toLowerCase() && entry.matcher.test(path))
      .sort((a, b) => a.params - b.params);
    if (!candidates[0]) throw new Error(`no documented operation for ${method} ${path}`);
    return candidates[0];
  }

  function responseFor(operation: Operation, status: number): ResponseObject | undefined {
    const response = operation.responses[String(status)];
    if (response && '$ref' in response) {
      return resolvePointer(doc, response.$ref) as ResponseObject | undefined;
    }
    return response;
  }

  return {
    operationFor,
    responseFor,
    /**
     * Asserts that `res` is an answer the document describes (to the operation `operationId`,
     * when given); returns its media type.
     */
    check(res: Response, operationId?: string): string {
      const { method, path: url } = (res as unknown as { req: { method: string; path: string } })
        .req;
      const { operation, path } = operationFor(method, url);
      if (operationId) expect(operation.operationId, `${method} ${url}`).toBe(operationId);
      const where = `${method} ${path} (${operation.operationId}) → ${res.status}`;
      const response = responseFor(operation, res.status);
      expect(response, `${where} is not documented`).toBeDefined();
      const mediaType = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      const content = response?.content ?? {};
      expect(Object.keys(content), `${where}: media types`).toContain(mediaType);
      const schema = content[mediaType]?.schema;
      if (mediaType === 'application/json') {
        expect(schema, `${where}: a JSON answer needs a schema`).toBeDefined();
        const validate = schemas.validator(schema!);
        const problems = validate(res.body) ? '' : schemas.ajv.errorsText(validate.errors);
        expect(problems, `${where}: body ${JSON.stringify(res.body)}`).toBe('');
      }
      for (const [name, header] of Object.entries(response?.headers ?? {})) {
        const value = res.headers[name.toLowerCase()] as string | undefined;
        if (value === undefined) {
          expect(header.required, `${where}: header ${name} is missing`).not.toBe(true);
          continue;
        }
        if (header.schema) {
          const validate = schemas.validator(header.schema);
          const problems = validate(value) ? '' : schemas.ajv.errorsText(validate.errors);
          expect(problems, `${where}: header ${name}: ${value}`).toBe('');
        }
      }
      const statuses = seen.get(operation.operationId) ?? new Set<string>();
      statuses.add(String(res.status));
      seen.set(operation.operationId, statuses);
      return mediaType;
    },
    seen,
  };
}
