import { useEffect, useRef } from 'react';

/**
 * The start of what is loaded of a long conversation (issue 31): when it comes into view (the employee scrolled up to
 * it), `onReached` asks for the older messages. Remounted (keyed by the oldest message shown) after each page, so an
 * employee still at the top asks for the next one. Nothing where the browser has no IntersectionObserver: the button
 * beside it does the same.
 */
export function ThreadStart({ onReached }: { onReached: () => void }) {
  const start = useRef<HTMLDivElement>(null);
  const latestOnReached = useRef(onReached);
  useEffect(() => {
    latestOnReached.current = onReached;
  });

  useEffect(() => {
    const element = start.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) latestOnReached.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return <div ref={start} className="lc-thread__start" aria-hidden="true" />;
}
