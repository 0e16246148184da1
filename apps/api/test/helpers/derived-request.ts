import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Task } from '@task-manager/shared';
import type { AnyEndpoint } from '../../src/http/endpoint.js';

/**
 * A valid request made from an endpoint's declaration alone: its path parameters filled with
 * real ids (the caller's fixtures say which), its required query parameters and its JSON body
 * generated from the declared schemas, a small PNG for a multipart upload. The contract test,
 * the permission matrix and the IDOR sweep send it wherever they have no hand-written request,
 * so a new endpoint is exercised without a line of its own in any of them.
 *
 * Values are plain and deterministic (never hostile: that is the fuzzer's job). A field whose
 * schema alone does not say what a valid value is (an id that must name a row, a checklist a
 * member may send) is filled from FIELD_VALUES by its name; an entry answering undefined leaves
 * the field to its schema.
 */

/** What a path parameter names: read from the path's prefix, or the parameter's name. */
export type PathKind =
  'user' | 'task' | 'item' | 'image' | 'label' | 'invite' | 'comment' | 'file' | 'calendar';

const PREFIX_KINDS: Record<string, PathKind> = {
  '/api/users/': 'user',
  '/api/tasks/': 'task',
  '/api/images/': 'image',
  '/api/labels/': 'label',
  '/api/invites/': 'invite',
  '/api/comments/': 'comment',
  '/api/files/': 'file',
  '/api/calendar/': 'calendar',
};

/** What the `{id}` (or `{secret}`) of a path names, by its prefix; undefined when nothing says. */
export function prefixKindOf(path: string): PathKind | undefined {
  return Object.entries(PREFIX_KINDS).find(([prefix]) => path.startsWith(prefix))?.[1];
}

/** What `{param}` of `path` names; throws, naming the endpoint, when nothing says. */
export function pathKindOf(endpoint: AnyEndpoint, param: string): PathKind {
  if (param === 'itemId' && endpoint.path.startsWith('/api/tasks/')) return 'item';
  const kind = prefixKindOf(endpoint.path);
  if (!kind) {
    throw new Error(
      `${endpoint.operationId}: nothing says what {${param}} in ${endpoint.path} names; ` +
        'add its prefix to PREFIX_KINDS in test/helpers/derived-request.ts',
    );
  }
  return kind;
}

/** The parameters of a path template, in order: `/api/tasks/{id}/todo/{itemId}` → id, itemId. */
export function pathParamsOf(endpoint: AnyEndpoint): string[] {
  return [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The path with each `{param}` replaced by its id. */
export function fillPath(endpoint: AnyEndpoint, ids: Record<string, string>): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`${endpoint.operationId}: no id for {${name}}`);
    return encodeURIComponent(id);
  });
}

/** What a body may depend on beyond its schema. */
export interface BodyContext {
  /** The task the path names, if any: a checklist body lists its items. */
  task?: Task;
  /** A user a task may be assigned to (an active member). */
  assignee: string;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A new password no check refuses (not common, not like the account). */
export const DERIVED_PASSWORD = 'a derived request passphrase 7';

/**
 * Values by field name, where the schema alone cannot say what a valid one is: names that must
 * be new (e-mail, label names), ids that must name rows, dates the server must parse, a role
 * that never makes anyone an admin, checklists a member may send (the task's own texts).
 */
const FIELD_VALUES: Record<string, (context: BodyContext) => unknown | undefined> = {
  email: () => `derived-${unique()}@example.com`,
  name: () => `Derived ${unique()}`,
  password: () => DERIVED_PASSWORD,
  newPassword: () => DERIVED_PASSWORD,
  role: () => 'member',
  color: () => '#336699',
  dueDate: () => new Date(Date.now() + 7 * 86_400_000).toISOString(),
  assignedTo: ({ assignee }) => [assignee],
  // The task's own items, the first ticked: what an assignee may send, and an admin too.
  todoChecklist: ({ task }) =>
    task
      ? task.todoChecklist.map((item, index) => ({ text: item.text, completed: index === 0 }))
      : [{ text: 'Derived item', completed: false }],
  // A checklist order: the task's items, last first (without a task: what the schema says).
  ids: ({ task }) => task?.todoChecklist.map((item) => item._id).reverse(),
};

/** The JSON Schema keywords the generator reads. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** A plain value valid for `schema` (a field named `name`), or undefined when none is known. */
function valueFor(
  name: string,
  schema: JsonSchema,
  root: JsonSchema,
  context: BodyContext,
): unknown {
  const known = Object.hasOwn(FIELD_VALUES, name) ? FIELD_VALUES[name]!(context) : undefined;
  // By name, unless the schema says it is something else (`email` of the notification settings
  // is an object of choices, not an address).
  if (known !== undefined && fitsType(known, schema)) return known;
  if (schema.$ref) {
    const target = root.$defs?.[schema.$ref.replace('#/$defs/', '')];
    return target ? valueFor(name, target, root, context) : undefined;
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const branch = branches.find((candidate) => candidate.type !== 'null') ?? branches[0]!;
    return valueFor(name, branch, root, context);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      // Only what is required; with nothing required, the first field (an update needs one).
      const chosen = required.size > 0 ? properties.filter(([key]) => required.has(key)) : [];
      if (chosen.length === 0 && properties[0]) chosen.push(properties[0]);
      return Object.fromEntries(
        chosen.map(([key, property]) => [key, valueFor(key, property, root, context)]),
      );
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () =>
        valueFor(name, schema.items ?? {}, root, context),
      );
    case 'string':
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      return textOf(name, schema.minLength ?? 0, schema.maxLength ?? 100);
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

/** Whether `value` is of the JSON type `schema` names (any, when it names none). */
function fitsType(value: unknown, schema: JsonSchema): boolean {
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return (
    types.length === 0 || types.includes(type) || (type === 'number' && types.includes('integer'))
  );
}

/** A readable text for a field, within its length limits. */
function textOf(name: string, min: number, max: number): string {
  const text = `Derived ${name} ${unique()}`.slice(0, max);
  return text.padEnd(min, 'x');
}

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/**
 * A JSON body the endpoint accepts: made from its body schema, then parsed with it, so a body the
 * generator gets wrong fails here, naming the endpoint, instead of answering 400 somewhere later.
 */
export function derivedBody(endpoint: AnyEndpoint, context: BodyContext): unknown {
  if (!endpoint.body) return undefined;
  const bodySchema: z.ZodType = endpoint.body.schema;
  const schema = jsonSchemaOf(bodySchema);
  const body = valueFor('', schema, schema, context);
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    throw new Error(
      `${endpoint.operationId}: the body made from its schema, ${JSON.stringify(body)}, does ` +
        `not parse (${parsed.error.issues.map((issue) => issue.message).join('; ')}); teach ` +
        'FIELD_VALUES in test/helpers/derived-request.ts the field, or write this request by hand',
    );
  }
  return body;
}

/** The query parameters the endpoint requires, made from its query schema (optional ones: none). */
export function derivedQuery(endpoint: AnyEndpoint, context: BodyContext): Record<string, string> {
  if (!endpoint.query) return {};
  const schema = jsonSchemaOf(endpoint.query);
  const required = new Set(schema.required ?? []);
  return Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([key]) => required.has(key))
      .map(([key, property]) => [key, String(valueFor(key, property, schema, context))]),
  );
}

/** The multipart field that carries the file of an upload (`image`, `file`), if it is one. */
export function uploadFieldOf(endpoint: AnyEndpoint): string | undefined {
  const multipart = endpoint.requestBody?.content['multipart/form-data'] as
    { schema?: { properties?: Record<string, { format?: string }> } } | undefined;
  const fields = Object.entries(multipart?.schema?.properties ?? {});
  return fields.find(([, property]) => property.format === 'binary')?.[0];
}
