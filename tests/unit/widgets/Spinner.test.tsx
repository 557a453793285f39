import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Spinner } from '../../../src/widgets/Spinner.tsx';

describe('Spinner', () => {
  it('is a progress bar labelled Loading', () => {
    render(<Spinner />);
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
  });

  it('is never larger than 52 px', () => {
    render(<><Spinner size={40} /><Spinner size={80} /></>);
    const [small, capped] = screen.getAllByRole('progressbar', { name: 'Loading' });
    expect(small).toHaveStyle({ width: '40px', height: '40px' });
    expect(capped).toHaveStyle({ width: '52px', height: '52px' });
  });
});
