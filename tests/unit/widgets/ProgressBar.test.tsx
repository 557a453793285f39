import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../../src/widgets/ProgressBar.tsx';

describe('ProgressBar', () => {
  it('is a labelled progress bar with its percentage', () => {
    render(<ProgressBar label="Uploading" value={40} />);
    const bar = screen.getByRole('progressbar', { name: 'Uploading' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAttribute('aria-valuetext', '40%');
    expect(bar).toHaveTextContent('40%');
  });

  it('keeps the value between 0 and 100', () => {
    render(<><ProgressBar label="Low" value={-5} /><ProgressBar label="High" value={140} /></>);
    expect(screen.getByRole('progressbar', { name: 'Low' })).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByRole('progressbar', { name: 'High' })).toHaveAttribute('aria-valuenow', '100');
  });

  it('reads a value label instead of the percentage', () => {
    render(<ProgressBar label="Onboarding" value={66} valueLabel="Step 2 of 3" />);
    expect(screen.getByRole('progressbar', { name: 'Onboarding' })).toHaveAttribute('aria-valuetext', 'Step 2 of 3');
  });

  it('can be indeterminate', () => {
    render(<ProgressBar label="Working" isIndeterminate />);
    const bar = screen.getByRole('progressbar', { name: 'Working' });
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).not.toHaveTextContent('%');
  });

  it('keeps a hidden label for screen readers', () => {
    render(<ProgressBar label="Step progress" isLabelHidden value={33} />);
    expect(screen.getByRole('progressbar', { name: 'Step progress' })).toBeInTheDocument();
  });
});
