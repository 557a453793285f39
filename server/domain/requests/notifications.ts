import { REQUEST_STATUS_LABELS, type RequestStatus } from '../../../src/contract/requests.ts';
import type { Executor } from '../../db/client.ts';
import { appLink, enqueueMessage } from '../shared/outbox.ts';

/**
 * The e-mails an employee gets about their request, written to the outbox in the transaction of the change they
 * tell about. They name the request and link to it, and never quote the thread: the reply itself is read in the
 * app, behind sign-in. Internal notes notify nobody, so nothing here knows about them.
 */

interface Recipient {
  email: string;
  firstName: string;
}

interface NotifiedRequest {
  id: number;
  name: string;
}

export function requestLink(appUrl: string, requestId: number): string {
  return appLink(appUrl, `/requests/${requestId}`);
}

/** A concierge wrote in the thread. */
export async function notifyConciergeReply(
  tx: Executor,
  { appUrl, employee, request, conciergeName }: { appUrl: string; employee: Recipient; request: NotifiedRequest; conciergeName: string },
) {
  await enqueueMessage(tx, {
    channel: 'email',
    to: employee.email,
    subject: `New reply on your request "${request.name}"`,
    text: [
      `Hi ${employee.firstName},`,
      '',
      `${conciergeName}, your Life Concierge, replied to your request "${request.name}".`,
      '',
      `Read the reply and answer here: ${requestLink(appUrl, request.id)}`,
    ].join('\n'),
  });
}

const STATUS_SENTENCES: Record<RequestStatus, string> = {
  open: 'is back in the queue; a concierge will pick it up soon.',
  in_progress: 'is now In Progress: a concierge is working on it.',
  closed: 'is Completed.',
};

/** The request's status changed (SPEC §4 labels). */
export async function notifyStatusChange(
  tx: Executor,
  { appUrl, employee, request, from, to }: { appUrl: string; employee: Recipient; request: NotifiedRequest; from: RequestStatus; to: RequestStatus },
) {
  const reopened = from === 'closed';
  await enqueueMessage(tx, {
    channel: 'email',
    to: employee.email,
    subject: reopened
      ? `Your request "${request.name}" has been reopened`
      : `Your request "${request.name}" is ${REQUEST_STATUS_LABELS[to]}`,
    text: [
      `Hi ${employee.firstName},`,
      '',
      reopened
        ? `Your request "${request.name}" has been reopened and ${STATUS_SENTENCES[to]}`
        : `Your request "${request.name}" ${STATUS_SENTENCES[to]}`,
      '',
      `See your request: ${requestLink(appUrl, request.id)}`,
    ].join('\n'),
  });
}
