import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CATEGORY_ICON_NAMES, CategoryIcon, categoryIconName } from '../../../src/widgets/CategoryIcon.tsx';

describe('CategoryIcon', () => {
  it.each(CATEGORY_ICON_NAMES)('recognises %s', (name) => {
    expect(categoryIconName(name)).toBe(name);
  });

  it('matches the server names regardless of case and spaces', () => {
    expect(categoryIconName(' Home / Moving ')).toBe('home / moving');
    expect(categoryIconName('Medical / Employer Benefits')).toBe('medical / employer benefits');
  });

  it('falls back to the wildcard icon', () => {
    expect(categoryIconName('Gardening')).toBe('wildcard');
    const { container } = render(<CategoryIcon category="Gardening" />);
    expect(container.querySelector('svg')).toHaveAttribute('data-category-icon', 'wildcard');
  });

  it('draws a different picture for each category', () => {
    const drawings = CATEGORY_ICON_NAMES.map((name) => render(<CategoryIcon category={name} />).container.innerHTML
      .replace(/data-category-icon="[^"]*"/, ''));
    expect(new Set(drawings).size).toBe(CATEGORY_ICON_NAMES.length);
  });

  it('is decorative unless labelled', () => {
    const { container } = render(<CategoryIcon category="pet" />);
    expect(container.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    render(<CategoryIcon category="pet" label="Pet" />);
    expect(screen.getByRole('img', { name: 'Pet' })).toBeInTheDocument();
  });
});
