import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** How long a page may take to draw the element a link's #hash names (frames, about 1 s). */
const FRAMES = 60;

/**
 * Scrolls to the element the address's #hash names, as a browser does for a plain page: the
 * router does not. The element may be drawn a moment later (a section loading its data).
 */
export function useScrollToHash(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    let frame = 0;
    let pending = 0;
    const scroll = () => {
      const target = document.getElementById(id);
      if (target) return target.scrollIntoView?.({ block: 'start' });
      if (++frame < FRAMES) pending = requestAnimationFrame(scroll);
    };
    scroll();
    return () => cancelAnimationFrame(pending);
  }, [hash]);
}
