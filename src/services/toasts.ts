import { createActor } from 'xstate';
import { toastsMachine, type ToastType } from '../machines/toasts.machine.ts';

/** The app-wide toast queue, created once; ToastRegion renders it. */
export const toastsActor = createActor(toastsMachine);
toastsActor.start();

let toastCount = 0;

export interface ShowToastOptions {
  message: string;
  type?: ToastType;
  /** Dismiss after 10 seconds; otherwise the toast stays until closed. */
  autoDismiss?: boolean;
}

/** Shows a toast and returns its id (for dismissToast). */
export function showToast({ message, type = 'success', autoDismiss = false }: ShowToastOptions): string {
  toastCount += 1;
  const id = `toast-${toastCount}`;
  toastsActor.send({ type: 'SHOW', toast: { id, message, type, autoDismiss } });
  return id;
}

export function dismissToast(id: string): void {
  toastsActor.send({ type: 'DISMISS', id });
}
