import type { loginSchema, registerSchema } from '@task-manager/shared';
import { loadAppTexts } from '../../lib/i18n';
import { firstIssue } from '../../lib/validation';

export interface AuthSchemas {
  loginSchema: typeof loginSchema;
  registerSchema: typeof registerSchema;
}

let loading: Promise<AuthSchemas> | undefined;

/**
 * The shared sign-in and sign-up schemas load when first needed, not with the page: they bring
 * zod (~29 KB gzipped), which drawing /login does not need. A failed load is tried again next time.
 */
export function loadAuthSchemas(): Promise<AuthSchemas> {
  loading ??= import('@task-manager/shared').then(
    (shared) => ({ loginSchema: shared.loginSchema, registerSchema: shared.registerSchema }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Starts loading the schemas (on the form's first focus), so a submit rarely waits for them. */
export function preloadAuthSchemas(): void {
  loadAuthSchemas().catch(() => {
    // Tried again on submit.
  });
}

/**
 * On the sign-in or sign-up form's first focus: its schemas, and the signed-in screens' English,
 * which the frame shown after signing in waits for (loadAppTexts).
 */
export function preloadSignIn(): void {
  preloadAuthSchemas();
  loadAppTexts().catch(() => {
    // The frame asks again when it loads.
  });
}

/**
 * The first rule `input` breaks, by the shared schema `pick` chooses, or null. If the schemas
 * cannot load (say the network dropped), the form sends anyway: the server checks the same rules
 * with the same messages.
 */
export async function authFormProblem(
  pick: (schemas: AuthSchemas) => Parameters<typeof firstIssue>[0],
  input: unknown,
): Promise<string | null> {
  let schemas: AuthSchemas;
  try {
    schemas = await loadAuthSchemas();
  } catch {
    return null;
  }
  return firstIssue(pick(schemas), input);
}
