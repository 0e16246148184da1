import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../src/openapi/document.js';

/**
 * The document is generated from the endpoint declarations (see src/http/endpoint.ts). It must
 * stay equivalent to the hand-kept document it replaced, kept as it was on 2026-11-25 in
 * test/fixtures: every path, operation and component schema of that day is still there,
 * unchanged. New endpoints and schemas may be added; none of that day's may change or go.
 */
const before = JSON.parse(
  fs.readFileSync(new URL('../fixtures/openapi-2026-11-25.json', import.meta.url), 'utf8'),
) as {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};
const now = JSON.parse(JSON.stringify(createOpenApiDocument())) as typeof before;

/**
 * What was added since, on purpose: every error answer carries a stable `code` (issue 15). The
 * comparison takes it out again; everything else must be as it was.
 */
function withoutAdditions(doc: typeof before): typeof before {
  const copy = JSON.parse(JSON.stringify(doc)) as typeof before;
  const error = copy.components.schemas?.ErrorResponse as
    { properties: Record<string, unknown>; required: string[] } | undefined;
  if (error) {
    delete error.properties.code;
    error.required = error.required.filter((name) => name !== 'code');
  }
  return copy;
}
const comparable = withoutAdditions(now);

describe('the generated OpenAPI document', () => {
  it.each(
    Object.entries(before.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => [`${method.toUpperCase()} ${path}`, path, method]),
    ),
  )('%s is documented as before', (_name, path, method) => {
    expect(comparable.paths[path]?.[method]).toEqual(before.paths[path]![method]);
  });

  it('adds a stable code to every error answer', () => {
    const error = now.components.schemas?.ErrorResponse as { required: string[] };
    expect(error.required).toEqual(expect.arrayContaining(['message', 'code']));
  });

  it.each(['schemas', 'responses', 'securitySchemes'])('components.%s are as before', (kind) => {
    for (const [name, component] of Object.entries(before.components[kind] ?? {})) {
      expect(comparable.components[kind]?.[name], `${kind}.${name}`).toEqual(component);
    }
  });
});
