import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { OfferingListItem } from '../../contract/offerings.ts';
import { logoDisplay, type offeringsCatalogueMachine } from '../../machines/offeringsCatalogue.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { OfferingCard } from './OfferingCard.tsx';
import type { OfferingDrawerActor } from './OfferingDrawer.tsx';

export type OfferingsCatalogueActor = ActorRefFrom<typeof offeringsCatalogueMachine>;

/**
 * SPEC §9: the list re-animates over 0.4 s when the filter or the switch changes: a new key makes a new list, which
 * fades and rises in (offerings.css; nothing moves for users who ask for reduced motion). Only an entry animation of a
 * new element is asked for, which CSS does as well as framer-motion (the drawers' motion), without fetching
 * framer-motion's features (about 25 KB gzipped) on this route.
 */
export const LIST_ANIMATION_SECONDS = 0.4;

export interface OfferingCardListProps {
  offerings: OfferingListItem[];
  catalogue: OfferingsCatalogueActor;
  drawer: OfferingDrawerActor;
  /** row: a horizontally scrolling row on phones, a grid above; grid: a grid at every width. */
  layout: 'row' | 'grid';
  label: string;
  showsBenefitBadge?: boolean;
  /** When it changes, the list animates in again. */
  animationKey?: string;
}

/** The cards of a list; a click opens the drawer, a broken logo is reported to the catalogue. */
export function OfferingCardList({
  offerings, catalogue, drawer, layout, label, showsBenefitBadge, animationKey,
}: OfferingCardListProps) {
  const logoFailures = useSelector(catalogue, (snapshot) => snapshot.context.logoFailures);
  const loads = useSelector(catalogue, (snapshot) => snapshot.context.loads);
  const animates = animationKey !== undefined;
  return (
    <ul key={animationKey} aria-label={label}
      className={`lc-offering-list lc-offering-list--${layout}${animates ? ' lc-offering-list--animated' : ''}`}
      style={animates ? { animationDuration: `${LIST_ANIMATION_SECONDS}s` } : undefined}>
      {offerings.map((offering) => (
        <li key={offering.id} className="lc-offering-list__item">
          <OfferingCard offering={offering} logo={logoDisplay({ logoFailures, loads }, offering.id)}
            showsBenefitBadge={showsBenefitBadge}
            onOpen={(opened) => drawer.send({ type: 'OPEN', offering: opened })}
            onLogoError={(offeringId) => catalogue.send({ type: 'LOGO_FAILED', offeringId })} />
        </li>
      ))}
    </ul>
  );
}

/** Card-shaped placeholders while the first load is under way; screen readers hear 'Loading' once. */
export function OfferingCardsLoading({ layout, count }: { layout: 'row' | 'grid'; count: number }) {
  return (
    <div className={`lc-offering-list lc-offering-list--${layout}`}>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="lc-offering-list__item" aria-hidden={index > 0 || undefined}>
          <Skeleton blockHeight={48} lines={2} className="lc-offering-card lc-offering-card--loading" />
        </div>
      ))}
    </div>
  );
}

/** A failed load: what happened and a way to try again. */
export function CatalogueFailure({ catalogue }: { catalogue: OfferingsCatalogueActor }) {
  const hasFailed = useSelector(catalogue, (snapshot) => snapshot.matches('failed'));
  if (!hasFailed) return null;
  return (
    <div className="lc-failure">
      <Message severity="error">We couldn't load the benefits and offers. Please try again.</Message>
      <Button variant="secondary" onPress={() => catalogue.send({ type: 'RETRY' })}>Try again</Button>
    </div>
  );
}
