import { RATING_SCORE_LABELS } from '../../../src/contract/ratings.ts';
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

/** A request with replies its owner has not read. */
export interface UnreadRequest extends NotifiedRequest {
  unreadCount: number;
}

const repliesPhrase = (count: number) => (count === 1 ? 'a reply' : `${count} replies`);

/**
 * The concierge replied and the employee has not read it (issue 32): after the delay of their 'each' choice, one
 * e-mail for the requests whose replies fell due together, or the daily 'digest' of every request with unread
 * replies. Sent only while something is unread (server/domain/requests/replyEmails.ts decides).
 */
export async function notifyUnreadReplies(
  tx: Executor,
  { appUrl, employee, unread, digest }: { appUrl: string; employee: Recipient; unread: readonly UnreadRequest[]; digest: boolean },
) {
  const [only] = unread;
  const single = unread.length === 1 && !digest;
  await enqueueMessage(tx, {
    channel: 'email',
    to: employee.email,
    subject: digest
      ? 'Your Life Concierge digest: unread replies'
      : single
        ? `New reply on your request "${only.name}"`
        : `New replies on ${unread.length} of your requests`,
    text: [
      `Hi ${employee.firstName},`,
      '',
      ...(single
        ? [`Your Life Concierge replied to your request "${only.name}".`, '', `Read the reply and answer here: ${requestLink(appUrl, only.id)}`]
        : [
            'Your Life Concierge replied, and these replies are waiting for you:',
            '',
            ...unread.map((request) => `- "${request.name}": ${repliesPhrase(request.unreadCount)}, ${requestLink(appUrl, request.id)}`),
          ]),
      '',
      'You can choose which e-mails you get in Account Settings.',
    ].join('\n'),
  });
}

const STATUS_SENTENCES: Record<RequestStatus, string> = {
  open: 'is back in the queue; a concierge will pick it up soon.',
  in_progress: 'is now In Progress: a concierge is working on it.',
  closed: 'is Completed.',
};

/** A completion asks how it went (issue 28): one signed link per score, 1 (very poor) to 5 (excellent). */
function ratingInvitation(links: readonly string[]): string[] {
  return ['', 'How did we do? Choose a rating (you confirm it on the page that opens):', ...links.map((link, index) => `${index + 1} - ${RATING_SCORE_LABELS[index + 1]}: ${link}`)];
}

/** The request's status changed (SPEC §4 labels). */
export async function notifyStatusChange(
  tx: Executor,
  {
    appUrl,
    employee,
    request,
    from,
    to,
    rateLinks,
  }: { appUrl: string; employee: Recipient; request: NotifiedRequest; from: RequestStatus; to: RequestStatus; rateLinks?: readonly string[] },
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
      ...(rateLinks ? ratingInvitation(rateLinks) : []),
    ].join('\n'),
  });
}
