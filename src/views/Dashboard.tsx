import { useSession } from '../app/session.ts';
import { PageHeading } from './PageHeading.tsx';

/**
 * The dashboard shell: greeting and the first-request prompt from the signed-in user. Request lists and
 * suggestions arrive with request creation (issue 4) and the requests API (issue 5).
 */
export default function Dashboard() {
  const user = useSession((snapshot) => snapshot.context.user);
  if (!user) return null;
  const firstRequest = user.request_count === 0;
  return (
    <>
      <PageHeading title={`Welcome, ${user.first_name}`} />
      <section id="request-ideas" aria-labelledby="request-ideas-heading">
        <h2 id="request-ideas-heading">{firstRequest ? "It's your first request!" : 'Request ideas'}</h2>
        <p>
          Hand us the chores of everyday life: the car, the move, the vet, the insurance claim. You save an estimated
          3-4 hours per task, and your personal information stays confidential: it is never disclosed to your
          employer.
        </p>
      </section>
    </>
  );
}
