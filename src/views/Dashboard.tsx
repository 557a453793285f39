import { useSelector } from '@xstate/react';
import { Suspense, useDeferredValue, useSyncExternalStore } from 'react';
import type { ActorRefFrom } from 'xstate';
import { useAppActor, useFlow, useSession } from '../machines/appSystem.tsx';
import type { Company } from '../contract/account.ts';
import { ONBOARDING_INTRO_SURVEY_ID, type RecommendedRequestCategory } from '../contract/surveys.ts';
import { lazyPage } from '../services/lazyPage.ts';
import { dashboardMachine } from '../machines/dashboard.machine.ts';
import type { ClientRequest } from '../services/threadRules.ts';
import { LastActivity, UnreadRepliesBadge } from './requests/LastActivity.tsx';
import { Button } from '../widgets/Button.tsx';
import { CategoryIcon } from '../widgets/CategoryIcon.tsx';
import { CompanyLogo } from '../widgets/CompanyLogo.tsx';
import { relativeTime } from '../widgets/format.ts';
import { RetryMessage } from '../widgets/Message.tsx';
import { PlainLink } from '../widgets/Pressable.tsx';
import { Skeleton } from '../widgets/Skeleton.tsx';
import { Tabs } from '../widgets/Tabs.tsx';
import { PageHeading } from './PageHeading.tsx';
import { RequestStatusBadge } from './requests/RequestStatusBadge.tsx';
import { TemplateList } from './requestCreation/TemplateList.tsx';
import './Dashboard.css';

// The rating card (issue 28) loads after the Dashboard's own code: every signed-in page shares the Dashboard's chunk.
const RatingCard = lazyPage(async () => ({ default: (await import('./rating/RatingCard.tsx')).RatingCard }));

type DashboardActor = ActorRefFrom<typeof dashboardMachine>;

/** SPEC §2 Dashboard strings. */
export const DASHBOARD_TEXT = {
  inProgress: 'Your request is in progress',
  latest: 'Your latest request',
  noOpen: 'You have no open requests',
  firstRequest: "It's your first request!",
  ideas: 'Request ideas',
  explore: 'Explore categories',
  notListed: "Don't see what you need?",
  create: 'Create a request',
  viewAll: 'View all',
  meet: 'Meet your concierge',
} as const;

/** SPEC §9 onboarding intro survey: a first conversation in which the employee introduces themselves. */
export const INTRO_SURVEY = { id: ONBOARDING_INTRO_SURVEY_ID, name: 'Welcome to Life Concierge' } as const;

/**
 * The loading placeholders' blocks, in px: with their text lines, about as tall as the seeded content they stand for
 * (a request card; a category's three suggestions and its link), so that the page does not shift when it arrives.
 */
const LATEST_REQUEST_BLOCK_PX = 80;
const SUGGESTION_TABS_BLOCK_PX = 195;
const SUGGESTION_COLUMN_BLOCK_PX = 132;

/** Phones (below the "small" breakpoint of tokens.css) get the suggested categories as tabs. */
const NARROW_SCREEN = '(max-width: 599px)';

function narrowScreenQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_SCREEN) : null;
}

function useIsNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = narrowScreenQuery();
      query?.addEventListener('change', onChange);
      return () => query?.removeEventListener('change', onChange);
    },
    () => narrowScreenQuery()?.matches ?? false,
  );
}

/** SPEC §2 Dashboard. */
export default function Dashboard() {
  const app = useAppActor();
  const dashboard = useFlow(dashboardMachine, { id: 'dashboard' });
  const user = useSession((snapshot) => snapshot.context.user);
  if (!user) return null;
  const isFirstRequest = user.request_count === 0;

  return (
    <div className="lc-dashboard">
      <PageHeading title={isFirstRequest ? DASHBOARD_TEXT.firstRequest : `Welcome, ${user.first_name}`} />
      <LatestRequest dashboard={dashboard} isFirstRequest={isFirstRequest} />
      {!isFirstRequest && (
        <Suspense fallback={null}>
          <RatingCard requestId={null} token={null} preselected={null} />
        </Suspense>
      )}
      {isFirstRequest && (
        <section className="lc-dashboard__custom" aria-labelledby="meet-concierge-heading">
          <h2 id="meet-concierge-heading">{DASHBOARD_TEXT.meet}</h2>
          <p>Not sure where to start? Answer four short questions and your concierge will get in touch about your to-do list.</p>
          <Button variant="primary" onPress={() => app.send({ type: 'START_SURVEY', survey: INTRO_SURVEY })}>
            Start the conversation
          </Button>
        </section>
      )}

      <section id="request-ideas" className="lc-dashboard__ideas" aria-labelledby="request-ideas-heading">
        <div className="lc-dashboard__ideas-header">
          {isFirstRequest ? (
            <p id="request-ideas-heading" className="lc-dashboard__lead">
              Tell us what you need and a concierge takes it from there: people save an estimated 3-4 hours per task.
            </p>
          ) : (
            <h2 id="request-ideas-heading">{DASHBOARD_TEXT.ideas}</h2>
          )}
          <Button variant={isFirstRequest ? 'primary' : 'secondary'}
            onPress={() => app.send({ type: 'OPEN_CATEGORIES', mode: 'explore', trackedAs: 'explore_categories' })}>
            {DASHBOARD_TEXT.explore}
          </Button>
        </div>
        <Suggestions dashboard={dashboard} />
      </section>

      <section className="lc-dashboard__custom" aria-labelledby="custom-request-heading">
        <h2 id="custom-request-heading">{DASHBOARD_TEXT.notListed}</h2>
        <p>Describe anything else you need done, and your concierge will handle it.</p>
        <Button onPress={() => app.send({ type: 'OPEN_CATEGORIES', mode: 'custom', trackedAs: 'create_custom_request' })}>
          {DASHBOARD_TEXT.create}
        </Button>
      </section>

      <BrandingCard companies={user.companies} />
    </div>
  );
}

/**
 * SPEC §2: once the user has requests, a heading that follows the lists and the first in-progress request, else the
 * first open one. A failed load is said to everyone.
 */
function LatestRequest({ dashboard, isFirstRequest }: { dashboard: DashboardActor; isFirstRequest: boolean }) {
  const isLoading = useSelector(dashboard, (snapshot) => snapshot.matches({ requests: 'loading' }));
  const failure = useSelector(dashboard, (snapshot) => (snapshot.matches({ requests: 'failed' }) ? snapshot.context.requestsError : null));
  const inProgress = useSelector(dashboard, (snapshot) => snapshot.context.inProgressRequests);
  const open = useSelector(dashboard, (snapshot) => snapshot.context.openRequests);

  if (isFirstRequest && !failure) return null;
  if (isLoading) {
    return (
      <section className="lc-dashboard__latest" aria-label="Your requests">
        {/* As tall as the heading and request card it stands for, so that nothing below moves when they come. */}
        <Skeleton lines={2} blockHeight={LATEST_REQUEST_BLOCK_PX} />
      </section>
    );
  }
  if (failure) {
    return (
      <section className="lc-dashboard__latest" aria-label="Your requests">
        <LoadFailure message={failure} dashboard={dashboard} />
      </section>
    );
  }
  const shown = inProgress[0] ?? open[0];
  const heading = inProgress.length > 0 ? DASHBOARD_TEXT.inProgress : open.length > 0 ? DASHBOARD_TEXT.latest : DASHBOARD_TEXT.noOpen;
  return (
    <section className="lc-dashboard__latest" aria-labelledby="latest-request-heading">
      <h2 id="latest-request-heading">{heading}</h2>
      {shown && <RequestCard request={shown} />}
    </section>
  );
}

function RequestCard({ request }: { request: ClientRequest }) {
  return (
    <PlainLink href={`/requests/${request.id}`} className="lc-request-card">
      <span className="lc-request-card__icon">
        <CategoryIcon category={request.survey_category_name ?? 'wildcard'} size={28} />
      </span>
      <span className="lc-request-card__text">
        <span className="lc-request-card__name">{request.name}</span>
        <span className="lc-request-card__meta">
          <RequestStatusBadge status={request.status} />
          <span>Requested {relativeTime(request.issued_at)}</span>
        </span>
        <LastActivity requestId={request.id} lastMessage={request.last_message} />
      </span>
      <UnreadRepliesBadge requestId={request.id} />
    </PlainLink>
  );
}

function LoadFailure({ message, dashboard }: { message: string; dashboard: DashboardActor }) {
  return (
    <RetryMessage onRetry={() => dashboard.send({ type: 'RETRY' })}>{message}</RetryMessage>
  );
}

/** SPEC §2: up to 3 suggested categories, as columns (the third on extra-wide screens only), as tabs on phones. */
function Suggestions({ dashboard }: { dashboard: DashboardActor }) {
  const isNarrow = useIsNarrowScreen();
  // Issue 10: the suggestions are the heaviest part of the screen; once they arrive they render as a transition, in
  // short tasks, rather than in one task that would hold up a phone's main thread.
  const snapshot = useDeferredValue(useSelector(dashboard, (current) => current));
  const isLoading = snapshot.matches({ suggestions: 'loading' });
  const failure = snapshot.matches({ suggestions: 'failed' }) ? snapshot.context.suggestionsError : null;
  const categories = snapshot.context.categories;

  if (isLoading) {
    // Shaped and sized as what arrives (tabs on phones, columns elsewhere), so that nothing below moves when it does.
    if (isNarrow) return <Skeleton lines={4} blockHeight={SUGGESTION_TABS_BLOCK_PX} className="lc-suggestions" />;
    return (
      <div className="lc-suggestions lc-suggestions--columns">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} lines={4} blockHeight={SUGGESTION_COLUMN_BLOCK_PX} className="lc-suggestions__column" />
        ))}
      </div>
    );
  }
  if (failure) return <LoadFailure message={failure} dashboard={dashboard} />;
  if (isNarrow) {
    return (
      <Tabs titles={categories.map((category) => category.name)} label="Suggested categories" className="lc-suggestions">
        {categories.map((category) => (
          <SuggestedCategory key={category.id} category={category} headingHidden />
        ))}
      </Tabs>
    );
  }
  return (
    <div className="lc-suggestions lc-suggestions--columns">
      {categories.map((category) => (
        <section key={category.id} className="lc-suggestions__column" aria-labelledby={`suggested-category-${category.id}`}>
          <SuggestedCategory category={category} />
        </section>
      ))}
    </div>
  );
}

function SuggestedCategory({ category, headingHidden = false }: { category: RecommendedRequestCategory; headingHidden?: boolean }) {
  const app = useAppActor();
  return (
    <div className="lc-suggested-category">
      <h3 id={`suggested-category-${category.id}`} className={headingHidden ? 'lc-visually-hidden' : 'lc-suggested-category__name'}>
        <CategoryIcon category={category.name} size={24} />
        {category.name}
      </h3>
      <TemplateList templates={category.request_surveys} label={`Suggested ${category.name} requests`}
        onPick={(survey) => app.send({ type: 'START_SURVEY', survey })} />
      <PlainLink href={`/requests/category/${category.id}`} className="lc-suggested-category__all">
        {DASHBOARD_TEXT.viewAll}
        <span className="lc-visually-hidden"> {category.name} requests</span>
      </PlainLink>
    </div>
  );
}

/** SPEC §2: on phones, a card with the sponsoring companies (the sidebar footer says it on larger screens). */
function BrandingCard({ companies }: { companies: Company[] }) {
  if (companies.length === 0) return null;
  return (
    <aside className="lc-branding-card" aria-label="Your sponsor">
      <p className="lc-branding-card__text">Your concierge service is a benefit from</p>
      <ul className="lc-branding-card__companies">
        {companies.map((company) => (
          <li key={company.id}>
            <CompanyLogo company={company} height={32} />
          </li>
        ))}
      </ul>
    </aside>
  );
}
