import { type SnapshotFrom, assign, fromPromise, setup } from 'xstate';
import type { AuditEvent, AuditResponse } from '../contract/admin.ts';
import { listAuditEvents } from '../services/admin.ts';

export const AUDIT_LOAD_ERROR = "We couldn't load the audit log. Please try again.";
/** Events asked for per page. */
export const AUDIT_PAGE_SIZE = 50;

export interface AdminAuditContext {
  events: AuditEvent[];
  /** The `before` of the next (older) page; null on the last page. */
  nextCursor: number | null;
  error: string | null;
}

export type AdminAuditEvent = { type: 'LOAD_MORE' } | { type: 'RETRY' };

/** The audit log (issue 13), newest first, one page at a time: each older page is added below the ones shown. */
export const adminAuditMachine = setup({
  types: {
    context: {} as AdminAuditContext,
    events: {} as AdminAuditEvent,
  },
  actors: {
    listAuditEvents: fromPromise<AuditResponse, { before: number | null }>(({ input }) =>
      listAuditEvents({ limit: AUDIT_PAGE_SIZE, before: input.before ?? undefined }),
    ),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
  },
  actions: {
    appendPage: assign(({ context }, page: AuditResponse) => ({
      events: [...context.events, ...page.events],
      nextCursor: page.next_cursor,
      error: null,
    })),
    clearError: assign({ error: null }),
    showLoadError: assign({ error: AUDIT_LOAD_ERROR }),
  },
}).createMachine({
  id: 'adminAudit',
  context: { events: [], nextCursor: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        id: 'listAuditEvents',
        src: 'listAuditEvents',
        input: ({ context }) => ({ before: context.nextCursor }),
        onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    ready: {
      on: { LOAD_MORE: { guard: 'hasMore', target: 'loading' } },
    },
    /** The failed page is asked for again; the pages before it stay on screen. */
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});

export type AdminAuditSnapshot = SnapshotFrom<typeof adminAuditMachine>;
