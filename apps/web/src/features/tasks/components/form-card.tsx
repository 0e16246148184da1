import type { ReactNode } from 'react';

/** The card around the Create/Update Task form: its heading, an action beside it, the form. */
export function FormCard({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="task-form-heading"
      className="mx-auto max-w-4xl rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="mb-5 flex items-center justify-between gap-3">
        <h1 id="task-form-heading" className="text-xl font-semibold text-slate-900">
          {title}
        </h1>
        {action}
      </div>
      {children}
    </section>
  );
}
