import type { ReactNode } from 'react';

/** A titled white card that is its own region (named by its heading), as on settings pages. */
export function SectionCard({
  title,
  id,
  children,
}: {
  title: string;
  /** The heading's id: the section is labelled by it. */
  id: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
