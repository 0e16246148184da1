import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { dropIndex, moveItem } from '../checklist-draft';

/**
 * Reordering rows of a list by dragging a handle with a mouse, a pen or a finger (pointer
 * events, so touch screens work too). The list moves as the pointer does; `onDrop` runs once
 * at the end. The window listens while a drag is on: a row re-inserted by React would lose a
 * pointer capture.
 */
export function useRowDrag<T extends { key: string }>({
  items,
  onMove,
  onDrop,
}: {
  items: readonly T[];
  onMove: (items: T[]) => void;
  onDrop: (items: readonly T[], key: string) => void;
}) {
  const [draggingKey, setDraggingKey] = useState<string | null>(null);
  const rows = useRef(new Map<string, HTMLElement>());
  // The listeners read the latest list and callbacks, not the ones of the render that started.
  const latest = useRef({ items, onMove, onDrop });
  useEffect(() => {
    latest.current = { items, onMove, onDrop };
  });

  useEffect(() => {
    if (draggingKey === null) return;
    const key = draggingKey;
    function onPointerMove(event: PointerEvent) {
      const { items: list, onMove: move } = latest.current;
      const from = list.findIndex((item) => item.key === key);
      const middles = list.map((item) => {
        const box = rows.current.get(item.key)?.getBoundingClientRect();
        return box ? box.top + box.height / 2 : 0;
      });
      const to = dropIndex(middles, from, event.clientY);
      if (from >= 0 && to !== from) move(moveItem(list, from, to));
    }
    function onPointerEnd() {
      setDraggingKey(null);
      latest.current.onDrop(latest.current.items, key);
    }
    window.addEventListener('pointermove', onPointerMove);
    window.addEventListener('pointerup', onPointerEnd);
    window.addEventListener('pointercancel', onPointerEnd);
    return () => {
      window.removeEventListener('pointermove', onPointerMove);
      window.removeEventListener('pointerup', onPointerEnd);
      window.removeEventListener('pointercancel', onPointerEnd);
    };
  }, [draggingKey]);

  return {
    draggingKey,
    /** On the handle's pointerdown: the main button (or a touch) starts dragging its row. */
    start(event: ReactPointerEvent<HTMLElement>, key: string) {
      if (event.button !== 0) return;
      // No text selection or native drag while the row moves.
      event.preventDefault();
      setDraggingKey(key);
    },
    /** The ref of a row, whose position decides where a dragged row lands. */
    rowRef: (key: string) => (element: HTMLElement | null) => {
      if (element) rows.current.set(key, element);
      else rows.current.delete(key);
    },
  };
}
