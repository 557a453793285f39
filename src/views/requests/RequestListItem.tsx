import { Link } from 'react-router';
import type { ClientRequest } from '../../services/threadRules.ts';
import { CategoryIcon } from '../../widgets/CategoryIcon.tsx';
import { relativeTime } from '../../widgets/format.ts';
import { StatusLabel } from './StatusLabel.tsx';

/** One request in a Requests list: its category, name, status and when it was requested; opens the thread. */
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
            <StatusLabel status={request.status} />
            <span>Requested <time dateTime={request.issued_at}>{relativeTime(request.issued_at)}</time></span>
          </span>
        </span>
      </Link>
    </li>
  );
}
