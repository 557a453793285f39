import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ToastRegion } from '../../../src/widgets/ToastRegion.tsx';

const toastTexts = () => screen.queryAllByRole('listitem').map((item) => item.textContent);

describe('ToastRegion', () => {
  it('is an always-present polite live region, empty at first', () => {
    const { container } = render(<ToastRegion toasts={[]} onDismiss={() => {}} />);
    expect(container.querySelector('[aria-live="polite"]')).not.toBeNull();
    expect(screen.queryByRole('list', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('shows toasts in order with a success icon whatever their type, and a Close button that works by keyboard', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    render(
      <ToastRegion onDismiss={onDismiss} toasts={[
        { id: 'a', message: 'Profile saved', type: 'success' },
        { id: 'b', message: 'Upload failed', type: 'error' },
      ]} />,
    );
    expect(toastTexts()).toEqual(['Profile saved', 'Upload failed']);
    expect(screen.getAllByRole('listitem')[1].querySelector('svg.lc-toast__icon')).not.toBeNull();

    await user.tab();
    expect(within(screen.getAllByRole('listitem')[0]).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onDismiss).toHaveBeenCalledExactlyOnceWith('a');
  });
});
