import type { ReactNode } from 'react';
import './CategoryIcon.css';

/** SPEC §5: the recognised request categories; anything else shows the wildcard icon. */
export const CATEGORY_ICON_NAMES = [
  'car', 'family', 'finances', 'home', 'home / moving', 'medical / employer benefits', 'pet', 'travel', 'wildcard',
] as const;
export type CategoryIconName = (typeof CATEGORY_ICON_NAMES)[number];

// 24x24 line drawings, stroked with the current text colour.
const HOUSE = <><path d="M3 11l9-7 9 7" /><path d="M5 10v10h14V10" /><path d="M10 20v-6h4v6" /></>;

const CATEGORY_DRAWINGS: Record<CategoryIconName, ReactNode> = {
  car: <>
    <path d="M3 16v-4l2-5h14l2 5v4z" /><path d="M3 12h18" />
    <circle cx="7.5" cy="16.5" r="1.8" /><circle cx="16.5" cy="16.5" r="1.8" />
  </>,
  family: <>
    <circle cx="8" cy="6" r="2.5" /><circle cx="16" cy="6" r="2.5" /><circle cx="12" cy="13" r="2" />
    <path d="M4 20v-6a4 4 0 0 1 4-4" /><path d="M20 20v-6a4 4 0 0 0-4-4" /><path d="M9 20v-1.5a3 3 0 0 1 6 0V20" />
  </>,
  finances: <>
    <circle cx="12" cy="12" r="9" /><path d="M15 9.5c0-1.4-1.3-2.5-3-2.5s-3 1-3 2.4c0 3.1 6 1.6 6 4.8 0 1.5-1.3 2.8-3 2.8s-3-1.1-3-2.5" />
    <path d="M12 5v2M12 17v2" />
  </>,
  home: HOUSE,
  'home / moving': <>
    <path d="M2 10l7-5.5L16 10" /><path d="M4 9v9h10V9" />
    <path d="M16 14h3l2 2.5V19h-7" /><circle cx="9" cy="19.5" r="1.5" /><circle cx="18" cy="19.5" r="1.5" />
  </>,
  'medical / employer benefits': <>
    <rect x="3" y="3" width="18" height="18" rx="4" /><path d="M12 7.5v9M7.5 12h9" />
  </>,
  pet: <>
    <circle cx="6" cy="10" r="1.8" /><circle cx="10" cy="6" r="1.8" /><circle cx="14" cy="6" r="1.8" /><circle cx="18" cy="10" r="1.8" />
    <path d="M12 11c-3 0-5.5 3.5-5.5 6 0 1.7 1.3 2.5 3 2.5 1 0 1.6-.5 2.5-.5s1.5.5 2.5.5c1.7 0 3-.8 3-2.5 0-2.5-2.5-6-5.5-6z" />
  </>,
  travel: <>
    <path d="M10.5 13.5L3 11l1.5-1.5 8.5 1 4-4a2.1 2.1 0 0 1 3 3l-4 4 1 8.5L15.5 23 13 15.5" />
    <path d="M6 18l-2 2" />
  </>,
  wildcard: <>
    <path d="M12 3l2.3 5.7L20 11l-5.7 2.3L12 19l-2.3-5.7L4 11l5.7-2.3z" /><path d="M19 3v4M17 5h4" />
  </>,
};

/** The recognised icon for a category name (case and surrounding spaces ignored), else 'wildcard'. */
export function categoryIconName(category: string): CategoryIconName {
  const normalised = category.trim().toLowerCase();
  return (CATEGORY_ICON_NAMES as readonly string[]).includes(normalised) ? (normalised as CategoryIconName) : 'wildcard';
}

export interface CategoryIconProps {
  /** A category name as the server sends it, e.g. 'Home / Moving'. */
  category: string;
  /** Given when the icon stands alone and must be announced; otherwise it is decorative. */
  label?: string;
  size?: number;
  className?: string;
}

export function CategoryIcon({ category, label, size = 24, className }: CategoryIconProps) {
  const name = categoryIconName(category);
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75}
      strokeLinecap="round" strokeLinejoin="round" focusable="false" data-category-icon={name}
      className={['lc-category-icon', className].filter(Boolean).join(' ')}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}>
      {CATEGORY_DRAWINGS[name]}
    </svg>
  );
}
