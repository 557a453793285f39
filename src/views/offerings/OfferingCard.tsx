import type { OfferingListItem } from '../../contract/offerings.ts';
import type { LogoDisplay } from '../../machines/offeringsCatalogue.machine.ts';
import { PlainButton } from '../../widgets/Pressable.tsx';

/** SPEC §2: provider, heading, subheading and '(benefit)' or '(offer)'. */
export function offeringCardLabel(offering: OfferingListItem): string {
  const kind = offering.type === 'benefit' ? '(benefit)' : '(offer)';
  return `${offering.provider_name}, ${offering.heading}, ${offering.subheading} ${kind}`;
}

/**
 * The provider's logo, or its initial when the logo cannot be loaded or has no address yet (an offering being written
 * in the admin area). The provider's name is written beside it, so the picture itself says nothing more to screen
 * readers.
 */
export function ProviderLogo({
  offering,
  display = { shown: true, attempt: 0 },
  onError,
  className,
}: {
  offering: OfferingListItem;
  display?: LogoDisplay;
  onError?: () => void;
  className: string;
}) {
  if (!display.shown || !offering.provider_logo_url.trim()) {
    return (
      <span className={`${className} lc-provider-logo--initial`} aria-hidden="true">
        {offering.provider_name.trim().charAt(0).toUpperCase()}
      </span>
    );
  }
  return (
    // A new attempt is a new element, so the browser loads the logo again.
    <img key={display.attempt} className={className} src={offering.provider_logo_url} alt="" width={48} height={48}
      onError={onError} />
  );
}

function BenefitBadge() {
  return (
    <span className="lc-offering-card__badge" aria-hidden="true">
      <svg viewBox="0 0 24 24" width="18" height="18" focusable="false">
        <path d="M12 2l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 16.8 6.1 20l1.3-6.5L2.5 8.9l6.6-.8z" fill="currentColor" />
      </svg>
    </span>
  );
}

export interface OfferingCardProps {
  offering: OfferingListItem;
  logo: LogoDisplay;
  /** The full page marks benefit cards with a corner badge. */
  showsBenefitBadge?: boolean;
  onOpen: (offering: OfferingListItem) => void;
  onLogoError: (offeringId: number) => void;
}

/** One offering: provider logo, heading and subheading; opens the detail drawer. */
export function OfferingCard({ offering, logo, showsBenefitBadge = false, onOpen, onLogoError }: OfferingCardProps) {
  return (
    <PlainButton className="lc-offering-card" aria-label={offeringCardLabel(offering)} onPress={() => onOpen(offering)}>
      {showsBenefitBadge && offering.type === 'benefit' && <BenefitBadge />}
      <span className="lc-offering-card__provider">
        <ProviderLogo offering={offering} display={logo} onError={() => onLogoError(offering.id)}
          className="lc-provider-logo" />
        <span className="lc-offering-card__provider-name">{offering.provider_name}</span>
      </span>
      {/* Spaces between the parts, so that the card's text reads as the words of its label. */}{' '}
      <span className="lc-offering-card__heading">{offering.heading}</span>{' '}
      <span className="lc-offering-card__subheading">{offering.subheading}</span>
    </PlainButton>
  );
}
