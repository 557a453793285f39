/**
 * Shared pieces of the console's model-based tests: the people and requests of a small console, and a fake of
 * the live stream (src/services/liveUpdates.ts) that the tests drive by hand.
 */
import type {
  ConsoleRequest,
  ConsoleRequestSummary,
  QueueCounts,
  StaffMember,
  ThreadEntry,
} from '../../src/contract/console.ts';
import type { LiveEvent } from '../../src/contract/events.ts';
import type { Message } from '../../src/contract/requests.ts';
import type { LiveUpdatesOptions } from '../../src/services/liveUpdates.ts';

export const ME: StaffMember = { id: 11, full_name: 'Casey Concierge', email: 'concierge@demo.test', role: 'concierge' };
export const COLLEAGUE: StaffMember = { id: 12, full_name: 'Alex Admin', email: 'admin@demo.test', role: 'admin' };
export const STAFF: StaffMember[] = [COLLEAGUE, ME];

const ERIN = { id: 21, full_name: 'Erin Employee', email: 'employee@demo.test' };
const GRACE = { id: 22, full_name: 'Grace Hopper', email: 'grace@acme.test' };

const HOUR = 3_600_000;
/** Fixed times, far enough in the past that relative times read in days. */
export const T0 = Date.parse('2026-01-05T09:00:00.000Z');
export const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

function summary(partial: Partial<ConsoleRequestSummary> & Pick<ConsoleRequestSummary, 'id' | 'name'>): ConsoleRequestSummary {
  return {
    external_id: `req-${partial.id}`,
    status: 'open',
    issued_at: at(0),
    updated_at: at(1),
    closed_at: null,
    survey_category_name: 'Car',
    employee: ERIN,
    assignee: null,
    unread_count: 0,
    last_message_at: null,
    ...partial,
  };
}

export const BENEFITS_HELP = summary({ id: 1, name: 'Help me with my benefits', unread_count: 2, last_message_at: at(2) });
export const CAR_SERVICE = summary({ id: 3, name: 'Book a car service', employee: GRACE });
export const REGISTRATION = summary({ id: 2, name: 'Renew my car registration', status: 'in_progress', assignee: ME });
export const VET_VISIT = summary({ id: 4, name: 'Book a vet visit', status: 'in_progress', assignee: COLLEAGUE, unread_count: 1 });
export const MOVING = summary({ id: 5, name: 'Plan my move', status: 'closed', closed_at: at(3), assignee: ME });

export const COUNTS: QueueCounts = { in_queue: 2, in_progress_mine: 1, in_progress: 2, completed: 1 };
/** The counts after a live change: a new request came in. */
export const COUNTS_AFTER_NEWS: QueueCounts = { ...COUNTS, in_queue: 3 };

// ---- One whole request, as the console shows it ----

export function employeeMessage(id: number, text: string, hours: number): Extract<ThreadEntry, { kind: 'message' }> {
  return {
    kind: 'message',
    id,
    body_html: `<p>${text}</p>`,
    source: 'user',
    source_name: ERIN.full_name,
    external_created_at: at(hours),
    attachment_keys: [],
  };
}

export function wireMessage({ kind: _kind, ...message }: Extract<ThreadEntry, { kind: 'message' }>): Message {
  return message;
}

export const OPEN_REQUEST: ConsoleRequest = {
  ...BENEFITS_HELP,
  unread_count: 0,
  created_at: at(0),
  details: 'Which plan?: Dental',
  survey_category_image_url: null,
  employee: { ...ERIN, external_id: 'erin-1', companies: [{ id: 1, name: 'Acme Corporation', image_url: null }] },
  survey_answers: [
    { question_id: 7201, label: 'Which plan?', answer: 'Dental', attachment_key: null },
    { question_id: 7202, label: 'Your last statement', answer: 'statement.pdf', attachment_key: 'uploads/abc/statement.pdf' },
  ],
  thread: [employeeMessage(31, 'Hello, my plan number is 12-345.', 2)],
};

// ---- The live stream ----

/** The one subscription the console opens, driven by the test: events, polls and connection changes. */
export class FakeLiveStream {
  private onEvent: ((event: LiveEvent) => void) | null = null;
  private options: LiveUpdatesOptions = {};
  subscriptions = 0;
  unsubscriptions = 0;

  readonly subscribe = (onEvent: (event: LiveEvent) => void, options: LiveUpdatesOptions = {}) => {
    this.onEvent = onEvent;
    this.options = options;
    this.subscriptions += 1;
    return () => {
      this.unsubscriptions += 1;
      this.onEvent = null;
    };
  };

  reset() {
    this.onEvent = null;
    this.options = {};
    this.subscriptions = 0;
    this.unsubscriptions = 0;
  }

  deliver(event: LiveEvent) {
    if (!this.onEvent) throw new Error('nobody is subscribed to live updates');
    this.onEvent(event);
  }

  poll() {
    this.options.onPoll?.();
  }

  status(status: Parameters<NonNullable<LiveUpdatesOptions['onStatusChange']>>[0]) {
    this.options.onStatusChange?.(status);
  }
}

export const liveStream = new FakeLiveStream();
