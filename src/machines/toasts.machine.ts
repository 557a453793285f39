import { assign, cancel, enqueueActions, setup } from 'xstate';

export const TOAST_TYPES = ['success', 'info', 'warning', 'error'] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

/** SPEC §3: a toast has an id, a message and a type. */
export interface Toast {
  id: string;
  message: string;
  type: ToastType;
  /** SPEC §2: only a toast that asks for it disappears after the toast lifetime. */
  autoDismiss: boolean;
}

export interface ToastsContext {
  /** Oldest first. */
  toasts: Toast[];
}

export type ToastsEvent =
  | { type: 'SHOW'; toast: Toast }
  | { type: 'DISMISS'; id: string }
  /** Raised by the machine itself when an auto-dismissing toast's lifetime ends. */
  | { type: 'EXPIRE'; id: string };

/** SPEC §9: toast auto-dismiss after 10000 ms. */
export const TOAST_LIFETIME_MS = 10_000;

const expiryTimerId = (toastId: string) => `toast-expiry:${toastId}`;

export const toastsMachine = setup({
  types: {
    context: {} as ToastsContext,
    events: {} as ToastsEvent,
  },
  delays: {
    toastLifetime: TOAST_LIFETIME_MS,
  },
  guards: {
    isNewToast: ({ context, event }) =>
      event.type === 'SHOW' && !context.toasts.some((toast) => toast.id === event.toast.id),
    removesTheLastToast: ({ context, event }) =>
      (event.type === 'DISMISS' || event.type === 'EXPIRE') && context.toasts.every((toast) => toast.id === event.id),
  },
  actions: {
    addToast: assign({
      toasts: ({ context, event }) => (event.type === 'SHOW' ? [...context.toasts, event.toast] : context.toasts),
    }),
    scheduleExpiryIfAsked: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'SHOW' || !event.toast.autoDismiss) return;
      enqueue.raise({ type: 'EXPIRE', id: event.toast.id }, { delay: 'toastLifetime', id: expiryTimerId(event.toast.id) });
    }),
    removeToast: assign({
      toasts: ({ context, event }) =>
        event.type === 'DISMISS' || event.type === 'EXPIRE'
          ? context.toasts.filter((toast) => toast.id !== event.id)
          : context.toasts,
    }),
    // A toast closed by hand must not leave its timer behind.
    cancelExpiry: cancel(({ event }) => (event.type === 'DISMISS' ? expiryTimerId(event.id) : '')),
  },
}).createMachine({
  id: 'toasts',
  context: { toasts: [] },
  initial: 'empty',
  states: {
    empty: {
      on: {
        SHOW: { guard: 'isNewToast', target: 'showing', actions: ['addToast', 'scheduleExpiryIfAsked'] },
      },
    },
    showing: {
      on: {
        SHOW: { guard: 'isNewToast', actions: ['addToast', 'scheduleExpiryIfAsked'] },
        DISMISS: [
          { guard: 'removesTheLastToast', target: 'empty', actions: ['cancelExpiry', 'removeToast'] },
          { actions: ['cancelExpiry', 'removeToast'] },
        ],
        EXPIRE: [
          { guard: 'removesTheLastToast', target: 'empty', actions: 'removeToast' },
          { actions: 'removeToast' },
        ],
      },
    },
  },
});
