import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../widgets/Button.tsx';

export interface ConfirmDialogProps {
  /** The question, which also names the dialog. */
  question: string;
  /** The safe choice; also what Escape does. */
  stayLabel: string;
  onStay: () => void;
  confirmLabel: string;
  onConfirm: () => void;
}

/** A question on top of the drawer that must be answered before anything else (role alertdialog). */
export function ConfirmDialog({ question, stayLabel, onStay, confirmLabel, onConfirm }: ConfirmDialogProps) {
  return (
    <ModalOverlay isOpen isKeyboardDismissDisabled={false} onOpenChange={(isOpen) => !isOpen && onStay()}
      className="lc-confirm-overlay">
      <Modal className="lc-confirm">
        <Dialog role="alertdialog" className="lc-confirm__dialog">
          <Heading slot="title" className="lc-confirm__question">{question}</Heading>
          <div className="lc-confirm__actions">
            <Button variant="secondary" onPress={onStay} autoFocus>
              {stayLabel}
            </Button>
            <Button onPress={onConfirm}>{confirmLabel}</Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
