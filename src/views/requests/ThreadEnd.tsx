import { useEffect, useRef } from 'react';

/**
 * The end of the conversation (issue 32): while it is in view in a visible tab, the employee has seen every message,
 * and `onSeen` says so (again whenever the newest message changes: the thread remounts this with its id as key, or
 * the tab comes back into view). Nothing where the browser has no IntersectionObserver.
 */
export function ThreadEnd({ onSeen }: { onSeen: () => void }) {
  const end = useRef<HTMLDivElement>(null);
  const latestOnSeen = useRef(onSeen);
  useEffect(() => {
    latestOnSeen.current = onSeen;
  });

  useEffect(() => {
    const element = end.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    let inView = false;
    const tell = () => {
      if (inView && document.visibilityState === 'visible') latestOnSeen.current();
    };
    const observer = new IntersectionObserver((entries) => {
      inView = entries.some((entry) => entry.isIntersecting);
      tell();
    });
    observer.observe(element);
    document.addEventListener('visibilitychange', tell);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', tell);
    };
  }, []);

  return <div ref={end} className="lc-thread__end" aria-hidden="true" />;
}
