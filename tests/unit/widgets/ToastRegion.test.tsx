import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, showToast, toastsActor } from '../../../src/services/toasts.ts';
import { ToastRegion } from '../../../src/widgets/ToastRegion.tsx';

const toastTexts = () =>
  screen.queryAllByRole('listitem').map((item) => item.textContent);

afterEach(() => {
  // The app-wide queue outlives each test.
  for (const toast of toastsActor.getSnapshot().context.toasts) dismissToast(toast.id);
  vi.useRealTimers();
});

describe('ToastRegion with the app-wide toasts', () => {
  it('is an always-present polite live region, empty at first', () => {
    const { container } = render(<ToastRegion />);
    expect(container.querySelector('[aria-live="polite"]')).not.toBeNull();
    expect(screen.queryByRole('list', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('shows toasts in order with a success icon and a Close button that works by keyboard', async () => {
    const user = userEvent.setup();
    render(<ToastRegion />);
    act(() => {
      showToast({ message: 'Profile saved' });
      showToast({ message: 'Upload failed', type: 'error' });
    });
    expect(toastTexts()).toEqual(['Profile saved', 'Upload failed']);
    const failed = screen.getAllByRole('listitem')[1];
    expect(failed.querySelector('svg.lc-toast__icon')).not.toBeNull();

    await user.tab();
    expect(within(screen.getAllByRole('listitem')[0]).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(toastTexts()).toEqual(['Upload failed']);
  });

  it('auto-dismisses after 10 seconds only the toasts that ask for it', () => {
    vi.useFakeTimers();
    render(<ToastRegion />);
    act(() => {
      showToast({ message: 'Goes away', autoDismiss: true });
      showToast({ message: 'Stays' });
    });
    act(() => vi.advanceTimersByTime(9_999));
    expect(toastTexts()).toEqual(['Goes away', 'Stays']);
    act(() => vi.advanceTimersByTime(1));
    expect(toastTexts()).toEqual(['Stays']);
    act(() => vi.advanceTimersByTime(60_000));
    expect(toastTexts()).toEqual(['Stays']);
  });

  it('dismisses a toast by its id', () => {
    render(<ToastRegion />);
    let first = '';
    act(() => {
      first = showToast({ message: 'First' });
      showToast({ message: 'Second' });
    });
    act(() => dismissToast(first));
    expect(toastTexts()).toEqual(['Second']);
  });

  it('gives each toast its own id', () => {
    expect(showToast({ message: 'One' })).not.toBe(showToast({ message: 'Two' }));
  });
});
