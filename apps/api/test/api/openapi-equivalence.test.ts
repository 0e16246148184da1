import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../src/openapi/document.js';

/**
 * The document is generated from the endpoint declarations (see src/http/endpoint.ts). It must
 * stay equivalent to the hand-kept document it replaced, kept as it was on 2026-11-25 in
 * test/fixtures: every path, operation and component schema of that day is still there, with
 * only additions a client of that day cannot notice (see breakingChanges). New endpoints and
 * schemas may be added; nothing of that day's may change or go.
 */
const before = JSON.parse(
  fs.readFileSync(new URL('../fixtures/openapi-2026-11-25.json', import.meta.url), 'utf8'),
) as {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};
const now = JSON.parse(JSON.stringify(createOpenApiDocument())) as typeof before;

/** Texts for people (descriptions, summaries, examples): they may be reworded. */
const PROSE = new Set(['description', 'summary', 'example', 'examples']);

/**
 * Where `now` differs from `before` other than by an addition a client of that day cannot
 * notice, as a list of paths and reasons. Allowed: new keys of an object (a new field, a new
 * answer, a header), reworded prose, more names in a `required` list of what the API answers,
 * more values in an answer's `enum`, and new optional parameters. Not allowed: anything of that
 * day changed or gone, a new required field of a request (`input`), or a new required parameter.
 */
function breakingChanges(was: unknown, is: unknown, at: string, input: boolean): string[] {
  if (Array.isArray(was)) {
    if (!Array.isArray(is)) return [`${at}: no longer a list`];
    const key = at.split('.').at(-1);
    if (key === 'required' && !input) {
      const gone = was.filter((name) => !is.includes(name));
      return gone.length ? [`${at}: ${gone.join(', ')} no longer required`] : [];
    }
    if (key === 'required' || (key === 'enum' && input)) {
      return JSON.stringify([...was].sort()) === JSON.stringify([...is].sort())
        ? []
        : [`${at}: ${JSON.stringify(was)} became ${JSON.stringify(is)}`];
    }
    if (key === 'enum') {
      const gone = was.filter((value) => !is.includes(value));
      return gone.length ? [`${at}: ${gone.join(', ')} gone`] : [];
    }
    if (key === 'parameters') {
      const named = (list: unknown[]) =>
        new Map(
          list.map((p) => [
            (p as { name: string; in: string }).in + ' ' + (p as { name: string }).name,
            p,
          ]),
        );
      const before = named(was);
      const after = named(is);
      return [
        ...[...before].flatMap(([name, param]) =>
          after.has(name)
            ? breakingChanges(param, after.get(name), `${at}[${name}]`, true)
            : [`${at}: ${name} gone`],
        ),
        ...[...after]
          .filter(
            ([name, param]) => !before.has(name) && (param as { required?: boolean }).required,
          )
          .map(([name]) => `${at}: new required parameter ${name}`),
      ];
    }
    if (was.length !== is.length) return [`${at}: ${was.length} items became ${is.length}`];
    return was.flatMap((item, index) => breakingChanges(item, is[index], `${at}[${index}]`, input));
  }
  if (was !== null && typeof was === 'object') {
    if (is === null || typeof is !== 'object' || Array.isArray(is)) return [`${at}: changed kind`];
    const after = is as Record<string, unknown>;
    return Object.entries(was).flatMap(([key, value]) => {
      if (PROSE.has(key) && typeof value === 'string') return [];
      if (!(key in after)) return [`${at}.${key}: gone`];
      return breakingChanges(value, after[key], `${at}.${key}`, input || key === 'requestBody');
    });
  }
  return Object.is(was, is) ? [] : [`${at}: ${JSON.stringify(was)} became ${JSON.stringify(is)}`];
}

describe('the generated OpenAPI document', () => {
  it.each(
    Object.entries(before.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => [`${method.toUpperCase()} ${path}`, path, method]),
    ),
  )('%s is documented as before, or only added to', (_name, path, method) => {
    expect(
      breakingChanges(
        before.paths[path]![method],
        now.paths[path]?.[method],
        `${method} ${path}`,
        false,
      ),
    ).toEqual([]);
  });

  it('adds a stable code to every error answer', () => {
    const error = now.components.schemas?.ErrorResponse as { required: string[] };
    expect(error.required).toEqual(expect.arrayContaining(['message', 'code']));
  });

  it.each(['schemas', 'responses', 'securitySchemes'])(
    'components.%s are as before, or only added to',
    (kind) => {
      const problems = Object.entries(before.components[kind] ?? {}).flatMap(([name, component]) =>
        // Request bodies are named ...Input: a new required field there would break a client.
        breakingChanges(
          component,
          now.components[kind]?.[name],
          `${kind}.${name}`,
          name.endsWith('Input'),
        ),
      );
      expect(problems).toEqual([]);
    },
  );

  it('would notice a change a client of that day could not live with', () => {
    const doc = JSON.parse(JSON.stringify(before)) as typeof before;
    const schemas = doc.components.schemas as Record<
      string,
      { properties: Record<string, unknown>; required: string[] }
    >;
    schemas.Task!.properties.title = { type: 'number' };
    schemas.CreateTaskInput!.required.push('labels');
    delete schemas.User!.properties.email;
    const problems = Object.entries(before.components.schemas ?? {}).flatMap(([name, component]) =>
      breakingChanges(component, doc.components.schemas?.[name], name, name.endsWith('Input')),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^CreateTaskInput\.required: .* became .*"labels"\]$/),
      'User.properties.email: gone',
      'Task.properties.title.type: "string" became "number"',
    ]);
  });
});
