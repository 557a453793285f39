import { useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../PageHeading.tsx';
import { RatingCard } from './RatingCard.tsx';
import './RatingCard.css';

/**
 * The page a completion e-mail's rating link opens (issue 28): `/requests/:requestId/rate?score=N&token=T`, signed in
 * or not (the link's token stands for the session), with the link's score chosen. Nothing is saved until the
 * employee sends it.
 */
export default function RatePage() {
  const { requestId = '' } = useParams();
  const [search] = useSearchParams();
  const score = Number(search.get('score'));
  const token = search.get('token');
  return (
    <div className="lc-rate-page">
      <PageHeading title="Rate Your Request" />
      <RatingCard key={`${requestId} ${token}`} requestId={Number(requestId)} token={token} preselected={Number.isInteger(score) && score >= 1 && score <= 5 ? score : null} />
    </div>
  );
}
