import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';

/** Spec section 9: at most 20 toasts at once; success 2 s, blank and error 4 s, loading until done. */
export const TOAST_LIMIT = 20;

export function AppToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .slice(TOAST_LIMIT)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
  return (
    <Toaster
      position="top-right"
      toastOptions={{
        blank: { duration: 4000 },
        error: { duration: 4000 },
        success: { duration: 2000 },
        loading: { duration: Infinity },
      }}
    />
  );
}
