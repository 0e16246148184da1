import { useId, type ReactNode } from 'react';

/**
 * A chart as a figure named by its visible title. The drawing is hidden from assistive
 * technology; `summary` carries the same numbers as text instead.
 */
export function ChartCard({
  title,
  summary,
  emptyText,
  children,
}: {
  title: string;
  summary: string;
  /** Shown instead of the drawing when there is nothing to draw. */
  emptyText?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const summaryId = useId();
  return (
    <figure
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <figcaption>
        <h2 id={titleId} className="font-semibold text-slate-900">
          {title}
        </h2>
        <p id={summaryId} className="sr-only">
          {summary}
        </p>
      </figcaption>
      {emptyText ? (
        <p className="flex h-[325px] items-center justify-center text-sm text-slate-600">
          {emptyText}
        </p>
      ) : (
        <div aria-hidden className="mt-2">
          {children}
        </div>
      )}
    </figure>
  );
}
