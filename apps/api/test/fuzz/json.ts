/**
 * JSON that JSON.stringify cannot write: objects as key/value lists, so that `__proto__` is sent
 * as a real key, and raw text for nesting deeper than a recursive writer could go.
 */

export class Obj {
  constructor(readonly entries: Array<[string, Json]>) {}
}
export class Raw {
  constructor(readonly text: string) {}
}
export type Json = null | boolean | number | string | Json[] | Obj | Raw;

export function toJson(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Obj) {
    return `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  // NaN and ±Infinity have no JSON form: they go as null, as JSON.stringify writes them.
  return JSON.stringify(value) ?? 'null';
}

/** Long values shortened, so that a counterexample stays readable. */
export function preview(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** The object a JSON text holds, or undefined when it holds none (or is no JSON). */
export function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
