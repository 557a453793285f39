import { type RefObject, useEffect, useEffectEvent, useRef } from 'react';

/**
 * Watches an element come into and leave the viewport: `onChange(inView)` is told at each change. Nothing where the
 * browser has no IntersectionObserver. Attach the returned ref to the element.
 */
export function useInView<Watched extends Element>(onChange: (inView: boolean) => void): RefObject<Watched | null> {
  const watched = useRef<Watched>(null);
  const changed = useEffectEvent(onChange);
  useEffect(() => {
    const element = watched.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => changed(entries.some((entry) => entry.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return watched;
}
