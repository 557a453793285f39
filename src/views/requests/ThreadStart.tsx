import { useInView } from '../../widgets/inView.ts';

/**
 * The start of what is loaded of a long conversation (issue 31): when it comes into view (the employee scrolled up to
 * it), `onReached` asks for the older messages. Remounted (keyed by the oldest message shown) after each page, so an
 * employee still at the top asks for the next one. Nothing where the browser has no IntersectionObserver: the button
 * beside it does the same.
 */
export function ThreadStart({ onReached }: { onReached: () => void }) {
  const start = useInView<HTMLDivElement>((inView) => {
    if (inView) onReached();
  });
  return <div ref={start} className="lc-thread__start" aria-hidden="true" />;
}
