/**
 * JSON written elsewhere (by the database: tasks/documents.ts) and sent as it is, without being
 * parsed and serialised again. A handler returns a `JsonBody`; the endpoint sends its text.
 */

/** The JSON text of one value. */
export type JsonText = string & { readonly __jsonText: unique symbol };

/** `value` serialised, as a piece of a larger answer. */
export const toJsonText = (value: unknown): JsonText => JSON.stringify(value) as JsonText;

/** `[a,b,…]` from the JSON texts of its items. */
export const jsonArray = (items: readonly JsonText[]): JsonText =>
  `[${items.join(',')}]` as JsonText;

/** `{"key":value,…}` from the JSON texts of its values, in the order given. */
export function jsonObject(entries: ReadonlyArray<readonly [string, JsonText]>): JsonText {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}` as JsonText;
}

/** An answer whose JSON text is ready: sent as `application/json` unless a type was set. */
export class JsonBody {
  constructor(readonly text: JsonText) {}
}
