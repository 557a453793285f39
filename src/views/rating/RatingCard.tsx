import { useSelector } from '@xstate/react';
import { Suspense, useId } from 'react';
import { Link } from 'react-router';
import { useFlow } from '../../machines/appSystem.tsx';
import { RATING_TEXT, type RatingInput, ratingMachine, scoreInWords } from '../../machines/rating.machine.ts';
import { lazyPage } from '../../services/lazyPage.ts';
import { Button } from '../../widgets/Button.tsx';
import { formatDate } from '../../widgets/format.ts';
import { RetryMessage } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import type { RatingActor } from './RatingForm.tsx';
import './RatingCard.css';

// DESIGN §9 weight: the form (its radio group and text field) loads only when there is something to rate; the card
// stands on the Dashboard and on every request page, which mostly show nothing or a rating already given.
const RatingForm = lazyPage(() => import('./RatingForm.tsx'));

function GivenRating({ rating, changeable }: { rating: RatingActor; changeable: boolean }) {
  const given = useSelector(rating, (snapshot) => snapshot.context.state?.rating ?? null);
  const until = useSelector(rating, (snapshot) => snapshot.context.state?.changeable_until ?? null);
  if (!given) return null;
  return (
    <div className="lc-rating__given">
      <p>You rated this <strong>{scoreInWords(given.score)}</strong>.</p>
      {given.comment && <blockquote className="lc-rating__comment">{given.comment}</blockquote>}
      {changeable && (
        <>
          {until && <p className="lc-rating__until">You can change it until {formatDate(until, 'M d, yy')}.</p>}
          <Button variant="secondary" onPress={() => rating.send({ type: 'CHANGE' })}>Change rating</Button>
        </>
      )}
    </div>
  );
}

/**
 * "How did we do?": the rating of a completed request (issue 28), on its page, as the Dashboard's card (no request:
 * the latest one waiting) and on the page of a completion e-mail's link. Shows nothing when there is nothing to rate.
 */
export function RatingCard(input: RatingInput) {
  const rating = useFlow(ratingMachine, { id: 'rating', input });
  const headingId = useId();
  const phase = useSelector(rating, (snapshot) => snapshot.value);
  const requestName = useSelector(rating, (snapshot) => snapshot.context.state?.request_name ?? null);
  const requestId = useSelector(rating, (snapshot) => snapshot.context.state?.request_id ?? null);
  const error = useSelector(rating, (snapshot) => snapshot.context.error);
  const thanked = useSelector(rating, (snapshot) => snapshot.matches({ rated: 'thanked' }));
  const onDashboard = input.requestId === null;
  // On the Dashboard the card comes only when there is something to rate: a placeholder there would mostly appear and
  // go again, moving the page twice.
  if (phase === 'nothingToRate' || (onDashboard && phase === 'loading')) return null;
  return (
    <section className="lc-rating" aria-labelledby={headingId} aria-busy={phase === 'loading' || phase === 'saving'}>
      <h2 id={headingId} className="lc-rating__title">{RATING_TEXT.question}</h2>
      {onDashboard && requestName && <p className="lc-rating__request">Your request “{requestName}” is completed.</p>}
      {phase === 'loading' && <Skeleton lines={2} />}
      {phase === 'failed' && error && <RetryMessage onRetry={() => rating.send({ type: 'RETRY' })}>{error}</RetryMessage>}
      {(phase === 'asking' || phase === 'saving') && (
        <Suspense fallback={<Skeleton lines={2} />}>
          <RatingForm rating={rating} />
        </Suspense>
      )}
      {typeof phase === 'object' && 'rated' in phase && <GivenRating rating={rating} changeable />}
      {phase === 'closed' && (
        <>
          <GivenRating rating={rating} changeable={false} />
          <p className="lc-rating__until">{RATING_TEXT.closed}</p>
        </>
      )}
      <p role="status" className="lc-rating__status">{thanked ? RATING_TEXT.thanks : ''}</p>
      {input.token !== null && requestId !== null && <p><Link to={`/requests/${requestId}`}>See your request</Link></p>}
    </section>
  );
}
