import { translateServerText } from './i18n';

/** What this needs of a zod schema (the web app reaches zod only through packages/shared). */
interface SafeParser {
  safeParse(input: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}

/**
 * The first failing rule's message, in the schema's field order (spec section 5), in the app's
 * language, or null.
 */
export function firstIssue(schema: SafeParser, input: unknown): string | null {
  const result = schema.safeParse(input);
  return result.success
    ? null
    : translateServerText(result.error?.issues[0]?.message ?? 'Invalid input');
}
