import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export const inputClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-blue-600';

/** A visible label tied to its control, so the control is found (and read) by that label. */
export function Field({
  label,
  children,
  htmlFor,
}: {
  label: string;
  htmlFor: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={htmlFor} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

export function TextField({
  label,
  className = '',
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <Field label={label} htmlFor={props.id ?? id}>
      <input id={id} className={`${inputClass} ${className}`} {...props} />
    </Field>
  );
}

/** The first validation failure or the server's message, in red under a form. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}
