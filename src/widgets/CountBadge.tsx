import './CountBadge.css';

/** Past this a badge reads "99+": the exact number is no longer what the eye takes in. */
export const COUNT_BADGE_MAX = 99;

export interface CountBadgeProps {
  count: number;
  /** What is counted, as screen readers hear it after the number: "1 unread reply", "2 unread replies". */
  label: { one: string; other: string };
  className?: string;
}

/**
 * A small round count beside a link or a heading (unread replies on the Requests item, say); nothing when the count
 * is 0. Screen readers hear the number and what it counts, as part of the element it sits in.
 */
export function CountBadge({ count, label, className }: CountBadgeProps) {
  if (count <= 0) return null;
  return (
    <span className={['lc-count-badge', className].filter(Boolean).join(' ')}>
      <span aria-hidden="true">{count > COUNT_BADGE_MAX ? `${COUNT_BADGE_MAX}+` : count}</span>
      {/* The leading space keeps the number apart from the text before it in an accessible name. */}
      <span className="lc-visually-hidden">{` ${count} ${count === 1 ? label.one : label.other}`}</span>
    </span>
  );
}
