import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Message, RetryMessage } from '../../../src/widgets/Message.tsx';

afterEach(() => vi.useRealTimers());

describe('Message', () => {
  it('is an info status by default', () => {
    render(<Message>Saved drafts are kept for a week.</Message>);
    expect(screen.getByRole('status')).toHaveClass('lc-message--info');
    expect(screen.getByRole('status')).toHaveTextContent('Saved drafts are kept for a week.');
  });

  it('errors and warnings are alerts; success is a status', () => {
    render(<>
      <Message severity="error">Unable to sign in at this time. Please try again later.</Message>
      <Message severity="warning">Careful</Message>
      <Message severity="success">Done</Message>
    </>);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Unable to sign in at this time. Please try again later.',
      'Careful',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('Done');
  });

  it('shows its title', () => {
    render(<Message severity="success" title="All set">Your request was sent.</Message>);
    expect(screen.getByRole('status')).toHaveTextContent('All set');
  });

  it('has no close button unless it can be closed', () => {
    render(<Message>Note</Message>);
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });

  it('closes from its Close button by keyboard', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<Message onClose={onClose}>Note</Message>);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('disappears when its lifetime ends, and not before', () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    render(<Message lifetime={3000} onClose={onClose}>Copied</Message>);
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('RetryMessage', () => {
  it('is an error alert whose Try again button asks again', async () => {
    const onRetry = vi.fn();
    const user = userEvent.setup();
    render(<RetryMessage onRetry={onRetry}>We couldn't load your requests.</RetryMessage>);
    expect(screen.getByRole('alert')).toHaveClass('lc-message--error');
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load your requests.");
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
