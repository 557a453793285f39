import { useMediaQuery } from './mediaQuery.ts';

/** Whether the user asked the system for less motion; follows changes while the page is open. */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
