import { useEffect, useRef } from 'react';

/**
 * Keyboard shortcuts for the whole page: single keys ('c', '?', '/') and two-key sequences
 * ('g d'). None fires while the person types in a field, or with Ctrl, Alt or Meta held (those
 * belong to the browser and the system).
 */
export type ShortcutBindings = Record<string, (event: KeyboardEvent) => void>;

/** How long the second key of a sequence may wait for the first. */
export const SEQUENCE_TIMEOUT_MS = 1200;

/** Whether the key went to something that takes typing (a field, a select, an editor). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(
    type,
  );
}

/** Listens on the document while mounted; `bindings` may change on every render. */
export function useShortcuts(bindings: ShortcutBindings, enabled = true): void {
  const latest = useRef(bindings);
  useEffect(() => {
    latest.current = bindings;
  });

  useEffect(() => {
    if (!enabled) return;
    let pending: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const clear = () => {
      pending = null;
      clearTimeout(timer);
    };

    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
      if (isTyping(event.target)) return;
      const key = event.key;
      const table = latest.current;
      if (pending) {
        const sequence = `${pending} ${key}`;
        clear();
        const action = table[sequence];
        if (action) {
          event.preventDefault();
          action(event);
        }
        return;
      }
      if (Object.keys(table).some((name) => name.startsWith(`${key} `))) {
        pending = key;
        timer = setTimeout(clear, SEQUENCE_TIMEOUT_MS);
        return;
      }
      const action = table[key];
      if (action) {
        event.preventDefault();
        action(event);
      }
    }

    document.addEventListener('keydown', onKeyDown);
    return () => {
      clear();
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [enabled]);
}

/**
 * The items `j` and `k` move through: list rows and cards may mark themselves with this
 * attribute (and take focus themselves, with tabindex -1). On a page where none is marked, the
 * items are the main region's list items, and focus goes to the first control in each (a card's
 * link, so Enter opens it; a checklist item's checkbox, so `x` ticks it).
 */
export const SHORTCUT_ITEM = 'data-shortcut-item';

const LIST_ITEMS = 'main li, main [role="listitem"]';
const CONTROL = 'a[href], input:not([type="hidden"]), button, select, textarea, [tabindex]';

const visible = (element: HTMLElement) => element.getClientRects().length > 0;

/** Each item, with the element that takes focus for it. */
function shortcutItems(): Array<{ item: HTMLElement; target: HTMLElement }> {
  const marked = [...document.querySelectorAll<HTMLElement>(`[${SHORTCUT_ITEM}]`)].filter(visible);
  if (marked.length > 0) return marked.map((item) => ({ item, target: item }));
  const listed = [...document.querySelectorAll<HTMLElement>(LIST_ITEMS)];
  // The outermost items only: a card's own lists (labels, avatars) are part of the card.
  return listed
    .filter((item) => !listed.some((other) => other !== item && other.contains(item)))
    .flatMap((item) => {
      const target = [...item.querySelectorAll<HTMLElement>(CONTROL)].find(
        (control) => visible(control) && !control.matches(':disabled'),
      );
      return target ? [{ item, target }] : [];
    });
}

/** Moves focus to the next (1) or previous (-1) list item, from the focused one or the first. */
export function focusNextItem(step: 1 | -1): void {
  const items = shortcutItems();
  if (items.length === 0) return;
  const current = items.findIndex(({ item }) => item.contains(document.activeElement));
  const next =
    current === -1
      ? step === 1
        ? 0
        : items.length - 1
      : Math.min(Math.max(current + step, 0), items.length - 1);
  const { target } = items[next]!;
  target.focus();
  target.scrollIntoView?.({ block: 'nearest' });
}

/** Ticks (clicks) the checkbox of the focused item, or the focused checkbox itself. */
export function tickFocusedItem(): void {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && active.type === 'checkbox') {
    active.click();
    return;
  }
  const item = active?.closest<HTMLElement>(`[${SHORTCUT_ITEM}], ${LIST_ITEMS}`);
  item?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.click();
}

/** Focuses the page's search box (the first search field on the page). */
export function focusSearch(): boolean {
  const search = document.querySelector<HTMLInputElement>(
    'main input[type="search"], input[type="search"]',
  );
  if (!search) return false;
  search.focus();
  return true;
}
