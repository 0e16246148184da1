import { act } from '@testing-library/react';

/**
 * jsdom has no layout: every element is 0 px high and the window never scrolls. This gives the
 * virtual grid's rows (the elements it measures, marked with data-index) a height, and the
 * window a scroll position that `scrollWindowTo` moves, with the scroll event a browser sends.
 * The window itself keeps jsdom's 1024 × 768.
 */
export function fakeWindowLayout({ rowHeight }: { rowHeight: number }) {
  const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
  const scrollY = Object.getOwnPropertyDescriptor(window, 'scrollY')!;
  const scrollTo = Object.getOwnPropertyDescriptor(window, 'scrollTo');
  let y = 0;

  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.hasAttribute('data-index') ? rowHeight : 0;
    },
  });
  Object.defineProperty(window, 'scrollY', { configurable: true, get: () => y });
  // The virtualizer scrolls the window itself when a measured row differs from its estimate.
  Object.defineProperty(window, 'scrollTo', {
    configurable: true,
    writable: true,
    value: (options: ScrollToOptions) => {
      y = options.top ?? y;
    },
  });

  return {
    scrollWindowTo(top: number) {
      y = top;
      act(() => {
        window.dispatchEvent(new Event('scroll'));
      });
    },
    restore() {
      Object.defineProperty(HTMLElement.prototype, 'offsetHeight', offsetHeight);
      Object.defineProperty(window, 'scrollY', scrollY);
      if (scrollTo) Object.defineProperty(window, 'scrollTo', scrollTo);
    },
  };
}
