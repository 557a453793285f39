import type { ReactNode } from 'react';
import { Button as AriaButton, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { CloseIcon } from './icons.tsx';
import { checkOption } from './optionCheck.ts';
import './Drawer.css';

/** SPEC §5 widget option checks. */
export const DRAWER_POSITIONS = ['right', 'left', 'top', 'bottom'] as const;
export type DrawerPosition = (typeof DRAWER_POSITIONS)[number];
export const DRAWER_VARIANTS = ['nav', 'panel'] as const;
export type DrawerVariant = (typeof DRAWER_VARIANTS)[number];

export interface DrawerProps {
  isOpen: boolean;
  /** Called with false by the Close button, and by Escape or a backdrop click when dismissable. */
  onOpenChange: (isOpen: boolean) => void;
  /** The dialog's heading and accessible name. */
  title: string;
  /** Keeps the title for screen readers only, for drawers that draw their own header. */
  isTitleHidden?: boolean;
  children: ReactNode;
  /** Slides in from this edge (default right). */
  position?: DrawerPosition;
  /** nav is 275 px wide on wider screens, panel 660 px (default panel). */
  variant?: DrawerVariant;
  /** Whether Escape and a backdrop click close the drawer (default false: only the Close button). */
  isDismissable?: boolean;
  /** Covers the whole screen and fades in instead of sliding. */
  fullScreen?: boolean;
  /** Content reaches the edges instead of being padded. */
  fullBleed?: boolean;
  className?: string;
}

/**
 * A modal side sheet. Focus moves into it and is trapped there, page scrolling is blocked while it is open, and focus
 * returns to what opened it when it closes.
 */
export function Drawer({
  isOpen, onOpenChange, title, isTitleHidden = false, children, position = 'right', variant = 'panel',
  isDismissable = false, fullScreen = false, fullBleed = false, className,
}: DrawerProps) {
  checkOption('Drawer', 'position', position, DRAWER_POSITIONS);
  checkOption('Drawer', 'variant', variant, DRAWER_VARIANTS);
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={isDismissable}
      isKeyboardDismissDisabled={!isDismissable} className="lc-drawer-overlay">
      <Modal className={[
        'lc-drawer', `lc-drawer--${position}`, `lc-drawer--${variant}`, fullScreen && 'lc-drawer--full-screen', className,
      ].filter(Boolean).join(' ')}>
        <Dialog className="lc-drawer__dialog">
          {({ close }) => (
            <>
              <div className={isTitleHidden ? 'lc-drawer__header lc-drawer__header--bare' : 'lc-drawer__header'}>
                <Heading slot="title" className={isTitleHidden ? 'lc-visually-hidden' : 'lc-drawer__title'}>{title}</Heading>
                <AriaButton aria-label="Close" className="lc-drawer__close" onPress={close}>
                  <CloseIcon />
                </AriaButton>
              </div>
              <div className={fullBleed ? 'lc-drawer__body' : 'lc-drawer__body lc-drawer__body--padded'}>{children}</div>
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
