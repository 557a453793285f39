import { useSelector } from '@xstate/react';
import { Link, useSearchParams } from 'react-router';
import { offeringDrawerMachine } from '../../machines/offeringDrawer.machine.ts';
import { type OfferingsSearchActor, offeringsSearchMachine } from '../../machines/offeringsSearch.machine.ts';
import { isSearching } from '../../machines/search.ts';
import {
  OFFERINGS_LANDING_PATH,
  hasLoaded,
  offeringsCatalogueMachine,
  readOfferingsFilter,
  showsBenefitsSwitch,
  visibleOfferings,
} from '../../machines/offeringsCatalogue.machine.ts';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { Switch } from '../../widgets/Switch.tsx';
import { useFlow } from '../../machines/appSystem.tsx';
import { PageHeading } from '../PageHeading.tsx';
import { SearchBox, SearchOutcome } from '../SearchOutcome.tsx';
import { CategoryFilterBar } from './CategoryFilterBar.tsx';
import {
  CatalogueFailure,
  OfferingCardList,
  OfferingCardsLoading,
  type OfferingsCatalogueActor,
} from './OfferingCardList.tsx';
import { LazyOfferingDrawer } from './LazyOfferingDrawer.tsx';
import type { OfferingDrawerActor } from './OfferingDrawer.tsx';
import './offerings.css';

export const NO_RESULTS = 'Sorry, no results have been found';

export interface OfferingsFullViewProps {
  catalogue: OfferingsCatalogueActor;
  drawer: OfferingDrawerActor;
  search: OfferingsSearchActor;
}

/**
 * SPEC §2 Benefits & Offers full page: the back link, the category filter bar, 'Show only my benefits' (when it
 * would change anything) and the grid of cards, or 'Sorry, no results have been found' once loaded. Above them the
 * search of the catalogue (issue 32), whose results take the filters' and the grid's place while a search is on.
 */
export function OfferingsFullView({ catalogue, drawer, search }: OfferingsFullViewProps) {
  const searching = useSelector(search, isSearching);
  const isFetching = useSelector(catalogue, (snapshot) => snapshot.hasTag('fetching'));

  return (
    <div className="lc-offerings-page" aria-busy={isFetching}>
      <Link className="lc-offerings-back" to={OFFERINGS_LANDING_PATH}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M15 18l-6-6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Back to Benefits &amp; Offers
      </Link>
      <PageHeading title="All benefits & offers" />

      <SearchBox search={search} label="Search benefits & offers" placeholder="A name, a provider or a category" />
      {searching ? (
        <SearchOutcome search={search}>
          {(found) => (
            <OfferingCardList offerings={found} catalogue={catalogue} drawer={drawer} layout="grid" label="Benefits and offers found"
              showsBenefitBadge />
          )}
        </SearchOutcome>
      ) : (
        <CatalogueBrowser catalogue={catalogue} drawer={drawer} />
      )}

      <LazyOfferingDrawer actor={drawer} />
    </div>
  );
}

/** The catalogue by category: the filter bar, the switch, and the grid of the chosen offerings. */
function CatalogueBrowser({ catalogue, drawer }: Omit<OfferingsFullViewProps, 'search'>) {
  const categories = useSelector(catalogue, (snapshot) => snapshot.context.offeringCategories);
  const category = useSelector(catalogue, (snapshot) => snapshot.context.category);
  const benefitsOnly = useSelector(catalogue, (snapshot) => snapshot.context.benefitsOnly);
  const showsSwitch = useSelector(catalogue, showsBenefitsSwitch);
  const offerings = useSelector(catalogue, visibleOfferings);
  const loaded = useSelector(catalogue, hasLoaded);
  const isFetching = useSelector(catalogue, (snapshot) => snapshot.hasTag('fetching'));

  return (
    <>
      <div className="lc-offerings-filters">
        {categories ? (
          <CategoryFilterBar categories={categories} selected={category}
            onSelect={(selected) => catalogue.send({ type: 'SELECT_CATEGORY', category: selected })} />
        ) : (
          // The cards' placeholder says 'Loading' to screen readers; this one only keeps the space.
          !loaded && <div aria-hidden="true"><Skeleton lines={1} /></div>
        )}
        {showsSwitch && (
          <Switch isSelected={benefitsOnly}
            onChange={(isSelected) => catalogue.send({ type: 'SET_BENEFITS_ONLY', benefitsOnly: isSelected })}>
            Show only my benefits
          </Switch>
        )}
      </div>

      <CatalogueFailure catalogue={catalogue} />
      {!loaded && isFetching && <OfferingCardsLoading layout="grid" count={6} />}
      {loaded && offerings.length > 0 && (
        <OfferingCardList offerings={offerings} catalogue={catalogue} drawer={drawer} layout="grid"
          label="Benefits and offers" showsBenefitBadge animationKey={`${benefitsOnly}:${category}`} />
      )}
      <div role="status" className="lc-offerings-results">
        {loaded && offerings.length === 0 && <p className="lc-offerings-empty">{NO_RESULTS}</p>}
      </div>
    </>
  );
}

/** The route: the filter and the switch start from the address (type, filter), which follows every change. */
export default function OfferingsFull() {
  const [query] = useSearchParams();
  const catalogue = useFlow(offeringsCatalogueMachine, { id: 'offeringsCatalogue', input: { view: 'full', filter: readOfferingsFilter(query) } });
  const drawer = useFlow(offeringDrawerMachine, { id: 'offeringDrawer' });
  const search = useFlow(offeringsSearchMachine, { id: 'offeringsSearch' });
  return <OfferingsFullView catalogue={catalogue} drawer={drawer} search={search} />;
}
