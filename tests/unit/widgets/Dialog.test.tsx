import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps } from '../../../src/widgets/Dialog.tsx';

function renderConfirm(props: Partial<ConfirmDialogProps> = {}) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog isOpen title="Discard your changes?" confirmLabel="Discard changes" cancelLabel="Keep editing"
      onConfirm={onConfirm} onCancel={onCancel} {...props}>
      <p>What you typed is lost.</p>
    </ConfirmDialog>,
  );
  return { onConfirm, onCancel, user: userEvent.setup() };
}

describe('ConfirmDialog', () => {
  it('is an alert dialog named by its question, with the safe choice focused first', () => {
    renderConfirm();
    const dialog = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    expect(dialog).toHaveTextContent('What you typed is lost.');
    expect(within(dialog).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
  });

  it('confirms, and cancels by its button and by Escape', async () => {
    const { onConfirm, onCancel, user } = renderConfirm();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it('is not answered by a click beside it', async () => {
    const { onCancel, user } = renderConfirm();
    const overlay = screen.getByRole('alertdialog').closest('.lc-dialog-overlay');
    await user.click(overlay as HTMLElement);
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('cannot be cancelled while the confirmed change is on its way, and shows why it was refused', async () => {
    const { onConfirm, onCancel, user } = renderConfirm({ isConfirming: true, refusal: 'Acme still has open requests.' });
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Acme still has open requests.');
    expect(screen.getByRole('button', { name: 'Keep editing' })).toBeDisabled();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: /Discard changes/ }));
    expect(onCancel).not.toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
