import type { ReactNode } from 'react';
import { Dialog as AriaDialog, type DialogProps as AriaDialogProps, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './Button.tsx';
import { Message } from './Message.tsx';
import './Dialog.css';

export interface DialogProps extends Omit<AriaDialogProps, 'children'> {
  isOpen: boolean;
  /** Called with false by Escape, and by a click on the backdrop when dismissable. */
  onOpenChange: (isOpen: boolean) => void;
  /** The dialog's heading and accessible name. */
  title: string;
  /** Whether a click on the backdrop closes it (Escape always does, unless isKeyboardDismissDisabled). */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  children: ReactNode;
}

/**
 * A modal dialog in the middle of the screen, above drawers. Focus moves into it and stays there until it closes, then
 * returns to what opened it. For a side sheet, see Drawer.
 */
export function Dialog({ isOpen, onOpenChange, title, isDismissable = false, isKeyboardDismissDisabled = false, children, ...rest }: DialogProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={isDismissable}
      isKeyboardDismissDisabled={isKeyboardDismissDisabled} className="lc-dialog-overlay">
      <Modal className="lc-dialog">
        <AriaDialog {...rest} className={rest.className ? `lc-dialog__dialog ${rest.className}` : 'lc-dialog__dialog'}>
          <Heading slot="title" className="lc-dialog__title">{title}</Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface ConfirmDialogProps {
  isOpen: boolean;
  /** The question, which also names the dialog. */
  title: string;
  /** What the question is about, when the title alone does not say it. */
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /**
   * The safe choice, focused first; Escape chooses it too (default 'Cancel'). A click beside the dialog does not: it
   * must be answered, and a click meant for a dialog stacked above it would answer this one.
   */
  cancelLabel?: string;
  onCancel: () => void;
  /** While the confirmed change is on its way: the confirm button shows it, and nothing cancels it. */
  isConfirming?: boolean;
  /** Why the confirmed change was refused. */
  refusal?: string | null;
}

/** A question that must be answered before anything else (role alertdialog): a deactivation, discarded typing. */
export function ConfirmDialog({
  isOpen, title, children, confirmLabel, onConfirm, cancelLabel = 'Cancel', onCancel, isConfirming = false, refusal = null,
}: ConfirmDialogProps) {
  return (
    <Dialog role="alertdialog" isOpen={isOpen} title={title} onOpenChange={(open) => !open && !isConfirming && onCancel()}
      isKeyboardDismissDisabled={isConfirming}>
      {children && <div className="lc-dialog__body">{children}</div>}
      {refusal && <Message severity="error">{refusal}</Message>}
      <div className="lc-dialog__actions">
        <Button variant="secondary" onPress={onCancel} isDisabled={isConfirming} autoFocus>
          {cancelLabel}
        </Button>
        <Button onPress={onConfirm} isLoading={isConfirming}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
