import { useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components';
import type { ActorRefFrom } from 'xstate';
import type { toastsMachine } from '../machines/toasts.machine.ts';
import { toastsActor } from '../services/toasts.ts';
import { CloseIcon, SuccessIcon } from './icons.tsx';
import './ToastRegion.css';

export interface ToastRegionProps {
  /** The toast queue to show; the app-wide one unless a test gives its own. */
  actor?: ActorRefFrom<typeof toastsMachine>;
}

/**
 * The global toasts (SPEC §2): top-right on wide screens, bottom on narrow ones. The live region is always in the
 * page, so screen readers announce each toast as it is added.
 */
export function ToastRegion({ actor = toastsActor }: ToastRegionProps) {
  const toasts = useSelector(actor, (snapshot) => snapshot.context.toasts);
  const isShowing = useSelector(actor, (snapshot) => snapshot.matches('showing'));
  return (
    <div className="lc-toast-region" aria-live="polite" aria-relevant="additions text">
      {isShowing && (
        <ol className="lc-toast-region__list" aria-label="Notifications">
          {toasts.map((toast) => (
            <li key={toast.id} className="lc-toast" data-type={toast.type}>
              {/* SPEC §2: a success-style icon whatever the toast's type. */}
              <SuccessIcon className="lc-toast__icon" />
              <p className="lc-toast__message">{toast.message}</p>
              <AriaButton aria-label="Close" className="lc-close-button lc-toast__close"
                onPress={() => actor.send({ type: 'DISMISS', id: toast.id })}>
                <CloseIcon size={18} />
              </AriaButton>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
