import { act, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { AdminAccount, AuditEvent, AuditResponse } from '../../src/contract/admin.ts';
import { NO_AUDIT_FILTERS, adminAuditMachine } from '../../src/machines/adminAudit.machine.ts';
import { networkError } from './httpFailures.support.ts';
import { AdminAuditView } from '../../src/views/admin/AdminAuditView.tsx';
import { type SentCall, fakeAdminApi } from './adminApi.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';

type Machine = typeof adminAuditMachine;
type AuditSnapshot = ReturnType<Machine['transition']>;

const ALEX = { id: 1, full_name: 'Alex Admin', email: 'admin@demo.test' };
const INVITED: AuditEvent = {
  id: 12,
  at: '2026-03-02T10:00:00.000Z',
  action: 'staff.invite',
  actor: ALEX,
  subject_type: 'account',
  subject_id: 7,
  changes: { email: { before: null, after: 'nico@newco.test' } },
};
const CREATED: AuditEvent = {
  id: 11,
  at: '2026-03-01T09:00:00.000Z',
  action: 'company.create',
  actor: ALEX,
  subject_type: 'company',
  subject_id: 5,
  changes: { email_domains: { before: null, after: ['newco.test'] } },
};
const DEACTIVATED: AuditEvent = {
  id: 3,
  at: '2026-01-10T08:00:00.000Z',
  action: 'account.deactivate',
  actor: null,
  subject_type: 'account',
  subject_id: 4,
  changes: { active: { before: true, after: false } },
};

const FIRST_PAGE: AuditResponse = { events: [INVITED, CREATED], next_cursor: CREATED.id };
const LAST_PAGE: AuditResponse = { events: [DEACTIVATED], next_cursor: null };
/** Each event as its row reads: what was done, who did it, what changed. */
const ROW_TEXT: Record<number, RegExp> = {
  [INVITED.id]: /Alex Admin.*Invited staff #7.*E-mail: — → nico@newco\.test/,
  [CREATED.id]: /Alex Admin.*Created company #5.*E-mail domains: — → newco\.test/,
  [DEACTIVATED.id]: /A removed account.*Deactivated account #4.*Active: true → false/,
};
const ALEX_ACCOUNT: AdminAccount = {
  ...ALEX,
  first_name: 'Alex',
  last_name: 'Admin',
  role: 'admin',
  active: true,
  invited: false,
  employer_company_name: null,
  deactivated_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
};
const BY_ALEX = { ...NO_AUDIT_FILTERS, actorId: ALEX.id };
const BACKWARDS = { ...NO_AUDIT_FILTERS, fromDay: '2026-03-02', toDay: '2026-03-01' };

const { paths, titled } = flowModel(adminAuditMachine, {
  events: [
    doneEvent('listAuditEvents', FIRST_PAGE, 'first page'),
    doneEvent('listAuditEvents', LAST_PAGE, 'last page'),
    doneEvent('listAuditEvents', { events: [], next_cursor: null }, 'nothing recorded'),
    errorEvent('listAuditEvents', networkError(), 'page fails'),
    { label: 'show older', event: { type: 'LOAD_MORE' } },
    { label: 'retry', event: { type: 'RETRY' } },
    doneEvent('listActors', [ALEX_ACCOUNT], 'staff listed'),
    { label: 'only Alex', event: { type: 'FILTER', filters: BY_ALEX } },
    { label: 'period ends before it starts', event: { type: 'FILTER', filters: BACKWARDS } },
  ],
  offer: ({ context }, { label }) => {
    const firstPage = context.events.length === 0;
    const unfiltered = context.filters.actorId === null && context.filters.fromDay === null;
    if (label === 'staff listed') return context.actors.length === 0 && firstPage && unfiltered;
    // Filters are chosen from the first page of everything, once the staff are there to choose from.
    if (label === 'only Alex' || label === 'period ends before it starts') return context.actors.length > 0 && unfiltered && context.nextCursor !== null;
    if (label === 'first page' || label === 'nothing recorded') return firstPage;
    if (label === 'last page') return !firstPage;
    return true;
  },
});

let user: UserEvent;
let actor: Actor<Machine>;
let sent: SentCall[];

const olderButton = () => screen.queryByRole('button', { name: 'Show older changes' });

function expectRows({ context }: AuditSnapshot) {
  const grid = screen.getByRole('grid', { name: 'Audit log' });
  if (context.events.length === 0) {
    expect(grid).toHaveTextContent('No changes recorded yet.');
    return;
  }
  const rows = within(grid).getAllByRole('row').slice(1);
  expect(rows.map((row) => row.textContent)).toEqual(context.events.map((event) => expect.stringMatching(ROW_TEXT[event.id]!)));
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expect(screen.getByRole('region', { name: 'Audit log' })).toHaveAttribute('aria-busy', 'true');
    const before = snapshot.context.nextCursor;
    const byWho = snapshot.context.filters.actorId;
    expect(sent.filter((call) => call.path === 'admin/audit').at(-1)).toEqual({
      method: 'GET',
      path: 'admin/audit',
      body: undefined,
      query: { limit: '50', ...(before ? { before: String(before) } : {}), ...(byWho ? { actor_id: String(byWho) } : {}) },
    });
    if (snapshot.context.events.length === 0) {
      expect(screen.getByText('Loading')).toBeInTheDocument();
    } else {
      expectRows(snapshot);
      expect(olderButton()).toHaveAttribute('aria-busy', 'true');
    }
  },
  ready: (snapshot) => {
    expect(screen.getByRole('region', { name: 'Audit log' })).toHaveAttribute('aria-busy', 'false');
    // A period that ends before it starts is said, and not asked for.
    const { fromDay, toDay } = snapshot.context.filters;
    if (fromDay && toDay && toDay < fromDay) expect(screen.getByText('The start of the period must come before its end.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Who/ })).toHaveTextContent(snapshot.context.filters.actorId ? 'Alex Admin' : 'Anyone');
    expectRows(snapshot);
    if (snapshot.context.nextCursor === null || (fromDay && toDay && toDay < fromDay)) expect(olderButton()).not.toBeInTheDocument();
    else expect(olderButton()).not.toHaveAttribute('aria-busy');
  },
  failed: (snapshot) => {
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the audit log. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(olderButton()).not.toBeInTheDocument();
    // The pages already shown stay.
    if (snapshot.context.events.length > 0) expectRows(snapshot);
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminAuditMachine, pendingCalls),
  LOAD_MORE: () => user.click(olderButton()!),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  FILTER: async ({ event }) => {
    const { filters } = event as unknown as { filters: typeof BY_ALEX };
    if (filters.actorId !== null) {
      await user.click(screen.getByRole('button', { name: /Who/ }));
      await user.click(screen.getByRole('option', { name: 'Alex Admin' }));
    } else {
      // The date fields are typed segment by segment; the period is given to the screen's flow as they would give it.
      act(() => actor.send({ type: 'FILTER', filters }));
    }
  },
};

describe('admin audit machine against the audit screen', () => {
  beforeEach(() => {
    user = userEvent.setup();
    pendingCalls.clear();
    sent = fakeAdminApi([
      { method: 'GET', path: /^admin\/audit$/, id: 'listAuditEvents', answer: (page: AuditResponse) => page },
      { method: 'GET', path: /^admin\/staff$/, id: 'listActors', answer: (staff: AdminAccount[]) => ({ staff }) },
    ]);
    actor = createActor(adminAuditMachine).start();
    render(<AdminAuditView audit={actor} />);
  });

  afterEach(() => {
    actor.stop();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe('admin audit model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminAuditMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'an empty log': /^start (→ staff listed )?→ nothing recorded/,
        'older pages are added below': /first page → show older → last page$/,
        'a failed older page keeps the first': /first page → show older → page fails → retry/,
        'a failed first page': /^start → page fails → retry/,
        'filtered by who': /only Alex → first page/,
        'a backwards period is not asked for': /period ends before it starts$/,
      },
    );
  });
});
