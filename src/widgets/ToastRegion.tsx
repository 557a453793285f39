import { Button as AriaButton } from 'react-aria-components';
import { CloseIcon, SuccessIcon } from './icons.tsx';
import './ToastRegion.css';

export interface ToastRegionProps {
  /** Oldest first. The type only styles the toast. */
  toasts: ReadonlyArray<{ id: string; message: string; type: string }>;
  onDismiss: (id: string) => void;
}

/**
 * The global toasts (SPEC §2): top-right on wide screens, bottom on narrow ones. The live region is always in the
 * page, so screen readers announce each toast as it is added.
 */
export function ToastRegion({ toasts, onDismiss }: ToastRegionProps) {
  return (
    <div className="lc-toast-region" aria-live="polite" aria-relevant="additions text">
      {toasts.length > 0 && (
        <ol className="lc-toast-region__list" aria-label="Notifications">
          {toasts.map((toast) => (
            <li key={toast.id} className="lc-toast" data-type={toast.type}>
              {/* SPEC §2: a success-style icon whatever the toast's type. */}
              <SuccessIcon className="lc-toast__icon" />
              <p className="lc-toast__message">{toast.message}</p>
              <AriaButton aria-label="Close" className="lc-close-button lc-toast__close"
                onPress={() => onDismiss(toast.id)}>
                <CloseIcon size={18} />
              </AriaButton>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
