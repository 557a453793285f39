import { Link } from 'react-router';
import type { ClientRequest } from '../../services/threadRules.ts';
import { CategoryIcon } from '../../widgets/CategoryIcon.tsx';
import { relativeTime } from '../../widgets/format.ts';
import { LastActivity, UnreadRepliesBadge } from './LastActivity.tsx';
import { RequestStatusBadge } from './RequestStatusBadge.tsx';

/**
 * One request in a Requests list: its category, name, status and when it was requested, its unread replies and its
 * last message (issue 32); opens the thread.
 */
export function RequestListItem({ request }: { request: ClientRequest }) {
  return (
    <li className="lc-request-item">
      <Link to={`/requests/${request.id}`} className="lc-request-item__link">
        <span className="lc-request-item__icon">
          <CategoryIcon category={request.survey_category_name ?? 'wildcard'} />
        </span>
        <span className="lc-request-item__text">
          <span className="lc-request-item__name">{request.name}</span>
          <span className="lc-request-item__meta">
            <RequestStatusBadge status={request.status} />
            <span>Requested <time dateTime={request.issued_at}>{relativeTime(request.issued_at)}</time></span>
          </span>
          <LastActivity requestId={request.id} lastMessage={request.last_message} />
        </span>
        <UnreadRepliesBadge requestId={request.id} />
      </Link>
    </li>
  );
}
