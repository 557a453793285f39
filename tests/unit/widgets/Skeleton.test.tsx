import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Skeleton } from '../../../src/widgets/Skeleton.tsx';

describe('Skeleton', () => {
  it('says Loading to screen readers and hides its shapes', () => {
    const { container } = render(<Skeleton lines={4} blockHeight={120} />);
    expect(screen.getByText('Loading')).toHaveClass('lc-visually-hidden');
    const shapes = container.querySelector('[aria-hidden="true"]');
    expect(shapes?.querySelectorAll('.lc-skeleton__line')).toHaveLength(4);
    expect(shapes?.querySelectorAll('.lc-skeleton__block')).toHaveLength(1);
  });

  it('draws three lines by default', () => {
    const { container } = render(<Skeleton />);
    expect(container.querySelectorAll('.lc-skeleton__line')).toHaveLength(3);
    expect(container.querySelector('.lc-skeleton__block')).toBeNull();
  });
});
