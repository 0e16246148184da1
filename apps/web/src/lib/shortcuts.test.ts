import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { focusNextItem, isTyping, SHORTCUT_ITEM, tickFocusedItem, useShortcuts } from './shortcuts';

function press(key: string, target: EventTarget = document.body, init: KeyboardEventInit = {}) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, ...init }));
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('useShortcuts', () => {
  it('runs single keys and two-key sequences', () => {
    const create = vi.fn();
    const dashboard = vi.fn();
    renderHook(() => useShortcuts({ c: create, 'g d': dashboard }));
    press('c');
    press('g');
    press('d');
    expect(create).toHaveBeenCalledTimes(1);
    expect(dashboard).toHaveBeenCalledTimes(1);
  });

  it('fires nothing while the person types in a field, or with a modifier held', () => {
    const create = vi.fn();
    renderHook(() => useShortcuts({ c: create }));
    const input = document.body.appendChild(document.createElement('input'));
    const area = document.body.appendChild(document.createElement('textarea'));
    press('c', input);
    press('c', area);
    press('c', document.body, { ctrlKey: true });
    press('c', document.body, { metaKey: true });
    expect(create).not.toHaveBeenCalled();
    expect(isTyping(input)).toBe(true);
    const box = document.createElement('input');
    box.type = 'checkbox';
    expect(isTyping(box)).toBe(false);
  });
});

describe('list navigation', () => {
  it('moves focus through marked items with j/k and ticks the focused one with x', () => {
    const list = document.body.appendChild(document.createElement('ul'));
    for (const id of ['a', 'b']) {
      const item = list.appendChild(document.createElement('li'));
      item.id = id;
      item.tabIndex = -1;
      item.setAttribute(SHORTCUT_ITEM, '');
      const box = item.appendChild(document.createElement('input'));
      box.type = 'checkbox';
      box.id = `c${id}`;
    }
    // jsdom lays nothing out: give the items a box so they count as visible.
    for (const item of document.querySelectorAll<HTMLElement>('li')) {
      item.getClientRects = () => [{}] as unknown as DOMRectList;
    }
    focusNextItem(1);
    expect(document.activeElement?.id).toBe('a');
    focusNextItem(1);
    expect(document.activeElement?.id).toBe('b');
    focusNextItem(1);
    expect(document.activeElement?.id).toBe('b');
    tickFocusedItem();
    expect((document.getElementById('cb') as HTMLInputElement).checked).toBe(true);
    focusNextItem(-1);
    expect(document.activeElement?.id).toBe('a');
  });

  it('without marked items, moves through the main list items, focusing the control in each', () => {
    const main = document.body.appendChild(document.createElement('main'));
    const list = main.appendChild(document.createElement('ul'));
    for (const id of ['a', 'b']) {
      const item = list.appendChild(document.createElement('li'));
      const box = item.appendChild(document.createElement('input'));
      box.type = 'checkbox';
      box.id = `c${id}`;
      // A list inside an item is part of the item, not an item of its own.
      item.appendChild(document.createElement('ul')).appendChild(document.createElement('li'));
    }
    // Outside the main region: not an item.
    document.body
      .appendChild(document.createElement('li'))
      .appendChild(document.createElement('a'));
    for (const control of document.querySelectorAll<HTMLElement>('input, a')) {
      control.getClientRects = () => [{}] as unknown as DOMRectList;
    }
    focusNextItem(1);
    expect(document.activeElement?.id).toBe('ca');
    focusNextItem(1);
    expect(document.activeElement?.id).toBe('cb');
    focusNextItem(1);
    expect(document.activeElement?.id).toBe('cb');
    tickFocusedItem();
    expect((document.getElementById('cb') as HTMLInputElement).checked).toBe(true);
    focusNextItem(-1);
    expect(document.activeElement?.id).toBe('ca');
  });
});
