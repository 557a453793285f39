import { getLocalTimeZone, parseDate } from '@internationalized/date';
import { type SnapshotFrom, and, assertEvent, assign, fromPromise, not, setup } from 'xstate';
import type { AdminAccount, AuditAction, AuditEvent, AuditQuery, AuditResponse } from '../contract/admin.ts';
import { listAuditEvents, listStaffAccounts } from '../services/admin.ts';

export const AUDIT_LOAD_ERROR = "We couldn't load the audit log. Please try again.";
/** Events asked for per page. */
export const AUDIT_PAGE_SIZE = 50;

/** What the audit screen narrows the log to (issue 32); null is no narrowing. Days are 'YYYY-MM-DD', both included. */
export interface AuditFilters {
  actorId: number | null;
  action: AuditAction | null;
  fromDay: string | null;
  toDay: string | null;
}

export const NO_AUDIT_FILTERS: AuditFilters = { actorId: null, action: null, fromDay: null, toDay: null };

export interface AdminAuditContext {
  filters: AuditFilters;
  /** The staff who may have made changes, for the filter by who; empty until (or unless) they have loaded. */
  actors: AdminAccount[];
  events: AuditEvent[];
  /** The `before` of the next (older) page; null on the last page. */
  nextCursor: number | null;
  error: string | null;
}

export type AdminAuditEvent = { type: 'LOAD_MORE' } | { type: 'RETRY' } | { type: 'FILTER'; filters: AuditFilters };

/** A period that ends before it starts: shown as chosen, never asked for. */
export const isPeriodBackwards = ({ fromDay, toDay }: AuditFilters) => fromDay !== null && toDay !== null && toDay < fromDay;

/** The start of a day in the admin's own time zone, as the instant the server compares with. */
const startOfDay = (day: string) => parseDate(day).toDate(getLocalTimeZone()).toISOString();

/** The query of the filters: the period runs from the start of its first day to the start of the day after its last. */
export function auditQueryOf(filters: AuditFilters, before: number | null): AuditQuery {
  return {
    limit: AUDIT_PAGE_SIZE,
    ...(before !== null && { before }),
    ...(filters.actorId !== null && { actor_id: filters.actorId }),
    ...(filters.action !== null && { action: filters.action }),
    ...(filters.fromDay !== null && { from: startOfDay(filters.fromDay) }),
    ...(filters.toDay !== null && { until: startOfDay(parseDate(filters.toDay).add({ days: 1 }).toString()) }),
  };
}

/**
 * The audit log (issue 13), newest first, one page at a time: each older page is added below the ones shown. New
 * filters (issue 32: who, what kind, which days) start again from the newest page; a period whose end comes before
 * its start is not asked for.
 */
export const adminAuditMachine = setup({
  types: {
    context: {} as AdminAuditContext,
    events: {} as AdminAuditEvent,
  },
  actors: {
    listAuditEvents: fromPromise<AuditResponse, { filters: AuditFilters; before: number | null }>(({ input }) =>
      listAuditEvents(auditQueryOf(input.filters, input.before)),
    ),
    listActors: fromPromise<AdminAccount[]>(() => listStaffAccounts()),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    isPeriodBackwards: ({ event }) => {
      assertEvent(event, 'FILTER');
      return isPeriodBackwards(event.filters);
    },
    isShownPeriodBackwards: ({ context }) => isPeriodBackwards(context.filters),
  },
  actions: {
    appendPage: assign(({ context }, page: AuditResponse) => ({
      events: [...context.events, ...page.events],
      nextCursor: page.next_cursor,
      error: null,
    })),
    clearError: assign({ error: null }),
    showLoadError: assign({ error: AUDIT_LOAD_ERROR }),
    storeActors: assign((_, actors: AdminAccount[]) => ({ actors })),
    /** New filters: the pages shown answered the old ones. */
    applyFilters: assign(({ event }) => {
      assertEvent(event, 'FILTER');
      return { filters: event.filters, events: [], nextCursor: null };
    }),
    /** Kept on screen as chosen, so the admin sees what to correct; nothing is asked. */
    keepFilters: assign(({ event }) => {
      assertEvent(event, 'FILTER');
      return { filters: event.filters };
    }),
  },
}).createMachine({
  id: 'adminAudit',
  context: { filters: NO_AUDIT_FILTERS, actors: [], events: [], nextCursor: null, error: null },
  // Without the staff list the filter by who offers everyone only; the log itself does not depend on it.
  invoke: {
    id: 'listActors',
    src: 'listActors',
    onDone: { actions: { type: 'storeActors', params: ({ event }) => event.output } },
  },
  on: {
    FILTER: [
      { guard: 'isPeriodBackwards', target: '.ready', actions: 'keepFilters' },
      // Loading already, the page under way answered the old filters: loading starts again.
      { target: '.loading', actions: 'applyFilters' },
    ],
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        id: 'listAuditEvents',
        src: 'listAuditEvents',
        input: ({ context }) => ({ filters: context.filters, before: context.nextCursor }),
        onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    ready: {
      on: { LOAD_MORE: { guard: and(['hasMore', not('isShownPeriodBackwards')]), target: 'loading' } },
    },
    /** The failed page is asked for again; the pages before it stay on screen. */
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});

export type AdminAuditSnapshot = SnapshotFrom<typeof adminAuditMachine>;
