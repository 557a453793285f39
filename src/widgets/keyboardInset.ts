import { type RefObject, useEffect } from 'react';

/**
 * Keeps an element pinned to the bottom of the window above a phone's on-screen keyboard: the keyboard shrinks the
 * visual viewport, not the layout viewport that `position: sticky; bottom: 0` measures from (iOS Safari; Chrome
 * resizes the layout too, with the viewport meta's interactive-widget=resizes-content, and the inset is then 0).
 * The element reads the inset as `--lc-keyboard-inset`.
 */
export function useKeyboardInset(element: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return undefined;
    const place = () => {
      const inset = Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop);
      element.current?.style.setProperty('--lc-keyboard-inset', `${Math.round(inset)}px`);
    };
    place();
    viewport.addEventListener('resize', place);
    viewport.addEventListener('scroll', place);
    return () => {
      viewport.removeEventListener('resize', place);
      viewport.removeEventListener('scroll', place);
    };
  }, [element]);
}
