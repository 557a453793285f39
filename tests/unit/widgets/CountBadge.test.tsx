import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CountBadge } from '../../../src/widgets/CountBadge.tsx';

const LABEL = { one: 'unread reply', other: 'unread replies' };

describe('CountBadge', () => {
  it('shows the count, and tells screen readers what it counts', () => {
    render(<a href="/requests">Requests <CountBadge count={2} label={LABEL} /></a>);
    expect(screen.getByRole('link')).toHaveAccessibleName('Requests 2 unread replies');
    expect(screen.getByText('2')).toHaveAttribute('aria-hidden', 'true');
  });

  it('says one in the singular', () => {
    render(<CountBadge count={1} label={LABEL} />);
    expect(screen.getByText('1 unread reply')).toBeInTheDocument();
  });

  it('caps what it shows at 99+, and still says the number', () => {
    render(<CountBadge count={120} label={LABEL} />);
    expect(screen.getByText('99+')).toBeInTheDocument();
    expect(screen.getByText('120 unread replies')).toBeInTheDocument();
  });

  it('shows nothing for 0', () => {
    const { container } = render(<CountBadge count={0} label={LABEL} />);
    expect(container).toBeEmptyDOMElement();
  });
});
