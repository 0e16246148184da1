/**
 * Catches the browser's Back button while a form holds changes. A popstate event cannot be
 * cancelled, and react-router's blocker needs a data router, which the app does not use; so
 * while any form is changed, one extra history entry (the guard) sits on top of the form's own:
 * the same URL, a copy of its state (react-router's key and idx stay right) and a marker. Back
 * then first leaves the guard for the form's own entry, which shows the same page; that is when
 * the person is asked. Staying puts the guard back; leaving goes back once more, for real.
 *
 * A guard left behind, because the form was left by a link or navigated away after saving, is
 * stepped over when Back reaches it, so one press still leaves the form's URL. A guard under a
 * form that becomes clean (saved, or the changes undone) is taken away at once.
 *
 * Not caught: jumping several entries at once from the browser's history menu.
 */

const MARKER = 'unsavedChangesGuard';

/** The entry this module pushed and keeps while a form is changed. */
interface Guard {
  id: string;
  /** react-router's key of the form's own entry (copied into the guard). */
  key: unknown;
  href: string;
}

/** A changed form, with the question it asks (in the person's language). */
export interface GuardedForm {
  question: string;
}

const changedForms = new Set<GuardedForm>();
let guard: Guard | null = null;
/** A popstate this module caused itself, handled without asking. */
let expectedPop: 'removing' | 'leaving' | 'skipping' | null = null;
/** Where the last popstate landed: whether a guard left behind was reached from below. */
let lastLanding: { key: unknown; href: string } | null = null;
let removalQueued = false;
let installed = false;

function guardIdOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const id = (state as Record<string, unknown>)[MARKER];
  return typeof id === 'string' ? id : undefined;
}

function keyOf(state: unknown): unknown {
  return typeof state === 'object' && state !== null
    ? (state as Record<string, unknown>).key
    : undefined;
}

function onGuard(): boolean {
  return guard !== null && guardIdOf(window.history.state) === guard.id;
}

function pushGuard(): void {
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const state: Record<string, unknown> = { ...(window.history.state ?? {}), [MARKER]: id };
  window.history.pushState(state, '', window.location.href);
  guard = { id, key: state.key, href: window.location.href };
  lastLanding = null;
}

function currentQuestion(): string {
  let question = '';
  for (const form of changedForms) question = form.question;
  return question;
}

function onPopState(): void {
  const state: unknown = window.history.state;
  const landing = { key: keyOf(state), href: window.location.href };
  const cameFrom = lastLanding;
  lastLanding = landing;
  const expected = expectedPop;
  expectedPop = null;

  if (expected === 'leaving') return;
  if (expected === 'removing' || expected === 'skipping') {
    // A form was changed again while the guard was being taken away.
    if (changedForms.size > 0 && !onGuard()) pushGuard();
    return;
  }

  if (guard && changedForms.size > 0) {
    if (onGuard()) return;
    if (landing.key === guard.key && landing.href === guard.href) {
      // Back from the guard: the page is still the form, with everything typed.
      if (window.confirm(currentQuestion())) {
        guard = null;
        expectedPop = 'leaving';
        window.history.back();
      } else {
        pushGuard();
      }
    }
    return;
  }

  if (guardIdOf(state) !== undefined) {
    // A guard left behind. Coming up from the form's own entry (Forward), stay: the next Forward
    // goes on. Coming back from a later page, step over it to the form's own entry.
    const fromBelow =
      cameFrom !== null && cameFrom.key === landing.key && cameFrom.href === landing.href;
    if (!fromBelow) {
      expectedPop = 'skipping';
      window.history.back();
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('popstate', onPopState);
  // A page loaded onto a guard another page left (a reload, or Back across a reload): an
  // ordinary entry from now on.
  const state: unknown = window.history.state;
  if (guardIdOf(state) !== undefined) {
    const plain = { ...(state as Record<string, unknown>) };
    delete plain[MARKER];
    window.history.replaceState(plain, '');
  }
}

/** Listens from the first form on, so a guard left behind is stepped over. */
export function watchBackButton(): void {
  install();
}

/** While the form is changed: keeps a guard entry under the Back button. */
export function guardBackButton(form: GuardedForm): void {
  install();
  changedForms.add(form);
  if (changedForms.size > 1 || onGuard() || expectedPop === 'removing') return;
  pushGuard();
}

/**
 * The form is clean again, or gone. Once no form is changed (after the effects of this render:
 * another form may take over), a guard still on top is taken away.
 */
export function releaseBackButton(form: GuardedForm): void {
  changedForms.delete(form);
  if (changedForms.size > 0 || removalQueued) return;
  removalQueued = true;
  queueMicrotask(() => {
    removalQueued = false;
    if (changedForms.size > 0) return;
    const stillOnGuard = onGuard();
    guard = null;
    if (stillOnGuard && expectedPop === null) {
      expectedPop = 'removing';
      window.history.back();
    }
  });
}

/** Whether the person just chose to leave (the browser need not ask again on unload). */
export function isLeaving(): boolean {
  return expectedPop === 'leaving';
}

/**
 * For a navigation the app starts itself (the command palette, a `g` shortcut): true when no
 * form holds unsaved changes, or the person, asked as a link would ask, chooses to leave.
 */
export function mayLeaveChangedForms(): boolean {
  return changedForms.size === 0 || window.confirm(currentQuestion());
}
