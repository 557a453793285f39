import { LazyMotion, MotionConfig, type Transition, type Variants, domMin, m } from 'framer-motion';
import { type ReactNode, useState } from 'react';
import { Button as AriaButton, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { CloseIcon } from './icons.tsx';
import { checkOption } from './optionCheck.ts';
import { usePrefersReducedMotion } from './reducedMotion.ts';
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

/** React Aria's modal parts, taking framer-motion's animation props (its documented way of animating them). */
const MotionModalOverlay = m.create(ModalOverlay);
const MotionModal = m.create(Modal);

/**
 * framer-motion's animation features (domMin: the kit's gestures are React Aria's), in the drawer's own chunk: every
 * drawer is loaded when first wanted, so no page pays for them before it shows one, and a drawer never waits for (or
 * loses, after a deploy) a chunk of features of its own, which would leave it invisible with the focus trapped in it.
 */
const MOTION_FEATURES = domMin;

/**
 * SPEC §9: the backdrop's transition takes 300 ms, and the sheet moves with it (the duration and easing of tokens.css's
 * --lc-duration-backdrop and --lc-easing).
 */
const DRAWER_TRANSITION: Transition = { duration: 0.3, ease: [0.2, 0, 0, 1] };

/** The backdrop fades in and out, and so does a full-screen sheet. */
const FADE: Variants = { hidden: { opacity: 0 }, shown: { opacity: 1 } };

/** Any other sheet slides in from its edge and back out to it. */
const SLIDES: Record<DrawerPosition, Variants> = {
  right: { hidden: { x: '100%' }, shown: { x: 0 } },
  left: { hidden: { x: '-100%' }, shown: { x: 0 } },
  top: { hidden: { y: '-100%' }, shown: { y: 0 } },
  bottom: { hidden: { y: '100%' }, shown: { y: 0 } },
};

/**
 * Whether a closed drawer is still on screen, animating out: from the render that closes it until its exit
 * animation ends (React Aria's isExiting keeps it mounted, and lets focus go, meanwhile).
 */
function useExitState(isOpen: boolean): [isExiting: boolean, onExited: () => void] {
  const [wasOpen, setWasOpen] = useState(isOpen);
  const [isExiting, setIsExiting] = useState(false);
  if (isOpen !== wasOpen) {
    setWasOpen(isOpen);
    setIsExiting(!isOpen);
  }
  return [isExiting, () => setIsExiting(false)];
}

/** The sheet's content: its header (title and Close button) and its body. */
function DrawerDialog({
  title, isTitleHidden, fullBleed, children,
}: Pick<DrawerProps, 'title' | 'isTitleHidden' | 'fullBleed' | 'children'>) {
  return (
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
  );
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
  const [isExiting, onExited] = useExitState(isOpen);
  const prefersReducedMotion = usePrefersReducedMotion();
  const sheetClassName = [
    'lc-drawer', `lc-drawer--${position}`, `lc-drawer--${variant}`, fullScreen && 'lc-drawer--full-screen', className,
  ].filter(Boolean).join(' ');
  return (
    <LazyMotion features={MOTION_FEATURES} strict>
      <MotionConfig transition={DRAWER_TRANSITION} skipAnimations={prefersReducedMotion}>
        {/* Mounted afresh at each opening, so that each one animates in from its initial state. */}
        {(isOpen || isExiting) && (
          <MotionModalOverlay isOpen={isOpen} isExiting={isExiting} onOpenChange={onOpenChange}
            isDismissable={isDismissable} isKeyboardDismissDisabled={!isDismissable} className="lc-drawer-overlay"
            variants={FADE} initial="hidden" animate={isOpen ? 'shown' : 'hidden'}
            onAnimationComplete={(definition) => { if (definition === 'hidden') onExited(); }}>
            <MotionModal variants={fullScreen ? FADE : SLIDES[position]} className={sheetClassName}>
              <DrawerDialog title={title} isTitleHidden={isTitleHidden} fullBleed={fullBleed}>{children}</DrawerDialog>
            </MotionModal>
          </MotionModalOverlay>
        )}
      </MotionConfig>
    </LazyMotion>
  );
}
