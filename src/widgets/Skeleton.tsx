import './Skeleton.css';

export interface SkeletonProps {
  /** Text lines to sketch (the last one shorter), or 0 with a block height for a card-shaped placeholder. */
  lines?: number;
  /** Height in px of one block placeholder drawn above the lines, e.g. a card image. */
  blockHeight?: number;
  className?: string;
}

/** Grey shapes standing in for content that is loading; screen readers hear only 'Loading'. */
export function Skeleton({ lines = 3, blockHeight, className }: SkeletonProps) {
  return (
    <div className={['lc-skeleton', className].filter(Boolean).join(' ')}>
      <span className="lc-visually-hidden">Loading</span>
      <div aria-hidden="true" className="lc-skeleton__shapes">
        {blockHeight !== undefined && <div className="lc-skeleton__block" style={{ height: blockHeight }} />}
        {Array.from({ length: lines }, (_, index) => (
          <div key={index} className="lc-skeleton__line" data-last={index === lines - 1 && lines > 1 ? '' : undefined} />
        ))}
      </div>
    </div>
  );
}
