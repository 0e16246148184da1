import { useEffect } from 'react';
import { useT } from '../../../lib/i18n';
import {
  guardBackButton,
  isLeaving,
  releaseBackButton,
  watchBackButton,
  type GuardedForm,
} from '../../../lib/back-button-guard';

/**
 * While `active` (a form holds changes not saved yet), leaving asks first: closing or reloading
 * the tab (the browser's own question), following a link inside the app, and the browser's Back
 * button. The app's router is not a data router, so react-router's blocker is not available:
 * links are caught as they are clicked, before the router sees them, and Back by a guard entry in
 * the history (back-button-guard.ts). Staying keeps the page and everything typed.
 */
export function useUnsavedChangesPrompt(active: boolean) {
  const t = useT();
  const question = t('unsavedChanges.leave');

  useEffect(() => {
    watchBackButton();
  }, []);

  useEffect(() => {
    if (!active) return;
    const form: GuardedForm = { question };
    function onBeforeUnload(event: BeforeUnloadEvent) {
      // Already asked: Back was pressed and the person chose to leave.
      if (isLeaving()) return;
      event.preventDefault();
      // Older browsers show the question only when a return value is set.
      event.returnValue = '';
    }
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement)) return;
      if (link.target && link.target !== '_self') return;
      if (link.origin !== window.location.origin || link.hasAttribute('download')) return;
      if (link.pathname === window.location.pathname && link.search === window.location.search)
        return;
      if (window.confirm(question)) return;
      event.preventDefault();
      event.stopPropagation();
    }
    guardBackButton(form);
    window.addEventListener('beforeunload', onBeforeUnload);
    // Capture: before React's own listener, so the router never starts the navigation.
    document.addEventListener('click', onClick, true);
    return () => {
      releaseBackButton(form);
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [active, question]);
}
