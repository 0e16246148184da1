import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { useT } from '../../lib/i18n';
import { Button } from './button';

/** Tailwind's breakpoints (min-width, in rem): the grid's columns change where its classes would. */
const BREAKPOINTS = { sm: 40, md: 48, lg: 64, xl: 80 } as const;

/** Columns from a breakpoint up, like `grid-cols-1 md:grid-cols-2 xl:grid-cols-3`. */
export type GridColumns = { base: number } & Partial<Record<keyof typeof BREAKPOINTS, number>>;

function columnsNow(columns: GridColumns): number {
  let count = columns.base;
  for (const [name, rem] of Object.entries(BREAKPOINTS)) {
    const atBreakpoint = columns[name as keyof typeof BREAKPOINTS];
    if (atBreakpoint !== undefined && window.matchMedia(`(min-width: ${rem}rem)`).matches) {
      count = atBreakpoint;
    }
  }
  return count;
}

function subscribeToBreakpoints(onChange: () => void) {
  const queries = Object.values(BREAKPOINTS).map((rem) =>
    window.matchMedia(`(min-width: ${rem}rem)`),
  );
  for (const query of queries) query.addEventListener('change', onChange);
  return () => {
    for (const query of queries) query.removeEventListener('change', onChange);
  };
}

/** How many columns the grid has at the current window width. */
function useGridColumns(columns: GridColumns): number {
  return useSyncExternalStore(subscribeToBreakpoints, () => columnsNow(columns));
}

/** How far below the top of the page an element starts, whatever the scroll position. */
function pageTopOf(element: HTMLElement | null): number {
  let top = 0;
  for (let node = element; node; node = node.offsetParent as HTMLElement | null) {
    top += node.offsetTop;
  }
  return top;
}

/** Rows rendered beyond the screen on each side: Tab reaches the next card before it is needed. */
const OVERSCAN_ROWS = 3;
/** The next page is asked for when the last rendered row is this close to the last loaded row. */
const ROWS_BEFORE_END = 2;
/** The gap between rows and cards (Tailwind's gap-4). */
const GAP_PX = 16;

/**
 * A grid of cards that scrolls with the page but renders only the rows near the screen: the
 * window virtualizer places each row (its height measured, as cards differ) and the cards are
 * listitems with aria-setsize/aria-posinset, so a screen reader knows the whole list's size.
 * When the last rendered row nears the end of what is loaded, `onLoadMore` asks for more; a
 * loading row or an error row with Retry follows the grid.
 */
export function VirtualGrid<T>({
  items,
  total,
  columns,
  estimateRowHeight,
  keyOf,
  renderItem,
  label,
  canLoadMore,
  loadingMore,
  loadMoreFailed,
  onLoadMore,
  loadingMoreText,
  loadMoreFailedText,
}: {
  items: readonly T[];
  /** How many items there are in all, loaded or not; -1 when not known. */
  total: number;
  columns: GridColumns;
  estimateRowHeight: number;
  keyOf: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  label?: string;
  /** There is a next page, and nothing is being fetched or has just failed. */
  canLoadMore: boolean;
  /** The next page is on its way: the loading row shows. */
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
  loadingMoreText: string;
  loadMoreFailedText: string;
}) {
  const perRow = useGridColumns(columns);
  const t = useT();
  const rowCount = Math.ceil(items.length / perRow);
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the virtualizer works in page offsets.
  const [scrollMargin, setScrollMargin] = useState(0);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimateRowHeight,
    overscan: OVERSCAN_ROWS,
    gap: GAP_PX,
    scrollMargin,
    // A row is named by its first card, so a measured height stays with its cards.
    getItemKey: (row) => `${perRow}:${keyOf(items[row * perRow]!)}`,
  });
  // What is above the list moves it when the window's width changes (wrapping) or it first fills.
  const viewportWidth = virtualizer.scrollRect?.width;
  useLayoutEffect(() => {
    setScrollMargin(pageTopOf(listRef.current));
  }, [viewportWidth, rowCount, perRow]);

  const rows = virtualizer.getVirtualItems();
  const lastRenderedRow = rows.at(-1)?.index ?? -1;

  const nearEnd = lastRenderedRow >= rowCount - 1 - ROWS_BEFORE_END;
  useEffect(() => {
    if (nearEnd && canLoadMore) onLoadMore();
  }, [nearEnd, canLoadMore, onLoadMore]);

  return (
    <>
      <div
        ref={listRef}
        role="list"
        aria-label={label}
        className="relative w-full"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {rows.map((row) => {
          const first = row.index * perRow;
          return (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              role="none"
              className="absolute top-0 left-0 grid w-full gap-4"
              style={{
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
              }}
            >
              {items.slice(first, first + perRow).map((item, offset) => (
                <div
                  key={keyOf(item)}
                  role="listitem"
                  aria-setsize={total}
                  aria-posinset={first + offset + 1}
                >
                  {renderItem(item)}
                </div>
              ))}
            </div>
          );
        })}
      </div>
      {loadMoreFailed ? (
        <div role="alert" className="mt-4 flex items-center justify-center gap-3 text-sm">
          <span className="text-red-800">{loadMoreFailedText}</span>
          <Button variant="secondary" onClick={onLoadMore}>
            {t('ui.retry')}
          </Button>
        </div>
      ) : (
        loadingMore && (
          <div role="status" className="mt-4 flex items-center justify-center gap-2 text-sm">
            <span
              aria-hidden
              className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-blue-700"
            />
            <span className="text-slate-700">{loadingMoreText}</span>
          </div>
        )
      )}
    </>
  );
}
