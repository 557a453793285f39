import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { OfferingListItem } from '../../contract/offerings.ts';
import { useFlow, useSession } from '../../machines/appSystem.tsx';
import { offeringDrawerMachine } from '../../machines/offeringDrawer.machine.ts';
import { OFFERINGS_FULL_PATH, hasLoaded, offeringsCatalogueMachine } from '../../machines/offeringsCatalogue.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { PageHeading } from '../PageHeading.tsx';
import {
  CatalogueFailure,
  OfferingCardList,
  OfferingCardsLoading,
  type OfferingsCatalogueActor,
} from './OfferingCardList.tsx';
import { EmailConfirmationNotice } from './EmailConfirmationNotice.tsx';
import { LazyOfferingDrawer } from './LazyOfferingDrawer.tsx';
import type { OfferingDrawerActor } from './OfferingDrawer.tsx';
import './offerings.css';

/** SPEC §2: 'View all' of 'Your Benefits' opens the full page with the switch on. */
const ALL_BENEFITS_HREF = `${OFFERINGS_FULL_PATH}?type=benefit`;

/** A featured list of the landing, in a row of cards, with its 'View all'; not shown while it has no cards. */
function FeaturedSection({ id, title, viewAllHref, viewAllLabel, offerings, catalogue, drawer }: {
  id: string; title: string; viewAllHref: string; viewAllLabel: string;
  offerings: OfferingListItem[]; catalogue: OfferingsCatalogueActor; drawer: OfferingDrawerActor;
}) {
  if (offerings.length === 0) return null;
  return (
    <section className="lc-offerings-section" aria-labelledby={id}>
      <div className="lc-offerings-section__header">
        <h2 id={id}>{title}</h2>
        <Link className="lc-offerings-section__view-all" to={viewAllHref}>
          View all<span className="lc-visually-hidden"> {viewAllLabel}</span>
        </Link>
      </div>
      <OfferingCardList offerings={offerings} catalogue={catalogue} drawer={drawer} layout="row" label={title} />
    </section>
  );
}

export interface OfferingsLandingViewProps {
  catalogue: OfferingsCatalogueActor;
  drawer: OfferingDrawerActor;
  /** Shown above the benefits, e.g. the e-mail confirmation the benefits wait for. */
  notice?: ReactNode;
}

/**
 * SPEC §2 Benefits & Offers landing: the introduction, the help request, 'Your Benefits' and 'Exclusive Partner
 * Offers' (each only when it has cards), and the disclaimer.
 */
export function OfferingsLandingView({ catalogue, drawer, notice }: OfferingsLandingViewProps) {
  const featuredBenefits = useSelector(catalogue, (snapshot) => snapshot.context.featuredBenefits ?? []);
  const featuredProducts = useSelector(catalogue, (snapshot) => snapshot.context.featuredProducts ?? []);
  const loaded = useSelector(catalogue, hasLoaded);
  const isFetching = useSelector(catalogue, (snapshot) => snapshot.hasTag('fetching'));
  const hasFailed = useSelector(catalogue, (snapshot) => snapshot.matches('failed'));

  return (
    <div className="lc-offerings-page" aria-busy={isFetching}>
      <PageHeading title="Benefits & Offers">
        <p className="lc-offerings-page__intro">
          Everything your employer offers you, and exclusive deals from our partners, in one place. Open any of them to
          see how it works and how to make the most of it.
        </p>
      </PageHeading>

      {notice}

      <section className="lc-offerings-help" aria-labelledby="benefits-help-heading">
        <div>
          <h2 id="benefits-help-heading">Need help with your benefits?</h2>
          <p>Your concierge can explain your coverage, compare plans or sort out a claim for you.</p>
        </div>
        <Button onPress={() => catalogue.send({ type: 'REQUEST_BENEFITS_HELP' })}>Request help</Button>
      </section>

      <CatalogueFailure catalogue={catalogue} />
      {!loaded && isFetching && <OfferingCardsLoading layout="row" count={3} />}

      <FeaturedSection id="your-benefits-heading" title="Your Benefits" viewAllHref={ALL_BENEFITS_HREF}
        viewAllLabel="benefits" offerings={featuredBenefits} catalogue={catalogue} drawer={drawer} />
      <FeaturedSection id="partner-offers-heading" title="Exclusive Partner Offers" viewAllHref={OFFERINGS_FULL_PATH}
        viewAllLabel="benefits and offers" offerings={featuredProducts} catalogue={catalogue} drawer={drawer} />

      {/* Under the lists, once they are in: shown earlier, the lists arriving would push it down (issue 10: CLS). */}
      {(loaded || hasFailed) && (
        <p className="lc-offerings-disclaimer">
          The information on this page is a general overview. Eligibility and coverage vary by employment status,
          provider and location, and may change. Please check your official plan documents, or ask your employer or
          benefits provider, for the details that apply to you.
        </p>
      )}

      <LazyOfferingDrawer actor={drawer} />
    </div>
  );
}

/** The route: one catalogue actor for the featured lists and one drawer actor, for as long as the page is open. */
export default function OfferingsLanding() {
  const catalogue = useFlow(offeringsCatalogueMachine, { id: 'offeringsCatalogue', input: { view: 'landing' } });
  const drawer = useFlow(offeringDrawerMachine, { id: 'offeringDrawer' });
  const unconfirmedEmail = useSession((snapshot) => {
    const user = snapshot.context.user;
    return user?.email_confirmation_pending ? user.email : null;
  });
  return (
    <OfferingsLandingView catalogue={catalogue} drawer={drawer}
      notice={unconfirmedEmail !== null && <EmailConfirmationNotice email={unconfirmedEmail} />} />
  );
}
