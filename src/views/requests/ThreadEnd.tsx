import { useEffect, useEffectEvent, useState } from 'react';
import { useInView } from '../../widgets/inView.ts';

/**
 * The end of the conversation (issue 32): while it is in view in a visible tab, the employee has seen every message,
 * and `onSeen` says so (again whenever the newest message changes: the thread remounts this with its id as key, or
 * the tab comes back into view). Nothing where the browser has no IntersectionObserver.
 */
export function ThreadEnd({ onSeen }: { onSeen: () => void }) {
  const [inView, setInView] = useState(false);
  const end = useInView<HTMLDivElement>(setInView);
  const tellIfShown = useEffectEvent(() => {
    if (document.visibilityState === 'visible') onSeen();
  });
  useEffect(() => {
    if (!inView) return undefined;
    const tell = () => tellIfShown();
    tell();
    document.addEventListener('visibilitychange', tell);
    return () => document.removeEventListener('visibilitychange', tell);
  }, [inView]);
  return <div ref={end} className="lc-thread__end" aria-hidden="true" />;
}
