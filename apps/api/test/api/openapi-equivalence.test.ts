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

describe('the generated OpenAPI document', () => {
  it.each(
    Object.entries(before.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => [`${method.toUpperCase()} ${path}`, path, method]),
    ),
  )('%s is documented as before', (_name, path, method) => {
    expect(now.paths[path]?.[method]).toEqual(before.paths[path]![method]);
  });

  it.each(['schemas', 'responses', 'securitySchemes'])('components.%s are as before', (kind) => {
    for (const [name, component] of Object.entries(before.components[kind] ?? {})) {
      expect(now.components[kind]?.[name], `${kind}.${name}`).toEqual(component);
    }
  });
});
