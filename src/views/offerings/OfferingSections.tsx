import { useId, type ReactNode } from 'react';
import type { LinkItemKey, OfferingItem, OfferingListItem, OfferingSection } from '../../contract/offerings.ts';
import { PRODUCT_NAME } from '../../services/config.ts';
import { Button } from '../../widgets/Button.tsx';
import { ExternalLinkIcon } from '../../widgets/icons.tsx';
import { type ItemLink, isWebAddress, itemLink } from './links.ts';
import { ProviderLogo } from './OfferingCard.tsx';

/** Told to the drawer's statechart, which reports the click (SPEC §7 cta_click). */
export type OnFollowLink = (link: { text: string; url: string }) => void;

const KIND_NAMES: Record<LinkItemKey, string> = {
  phone: 'Phone',
  email: 'Email',
  download: 'Download',
  link: 'Website',
};

const KIND_ICON_PATHS: Record<LinkItemKey, string> = {
  phone: 'M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z',
  email: 'M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM22 6l-10 7L2 6',
  download: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3',
  link: 'M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7',
};

function KindIcon({ kind }: { kind: LinkItemKey }) {
  return (
    <svg className="lc-offering-link__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={KIND_ICON_PATHS[kind]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A link of the drawer: web addresses open in a new tab without access to this page. */
function OfferingLink({ href, text, onFollow, className, children }: {
  href: string; text: string; onFollow: OnFollowLink; className: string; children: ReactNode;
}) {
  const opensNewTab = isWebAddress(href);
  return (
    <a className={className} href={href} target={opensNewTab ? '_blank' : undefined}
      rel={opensNewTab ? 'noopener noreferrer' : undefined} onClick={() => onFollow({ text, url: href })}>
      {children}
      {opensNewTab && <span className="lc-visually-hidden"> (opens in a new tab)</span>}
    </a>
  );
}

/** A section's optional call to action (text and url, both or neither). */
function SectionCta({ section, onFollow }: { section: OfferingSection; onFollow: OnFollowLink }) {
  if (!section.cta_text || !section.cta_url) return null;
  return (
    <OfferingLink className="lc-offering-cta" href={section.cta_url} text={section.cta_text} onFollow={onFollow}>
      <span>{section.cta_text}</span>
      {isWebAddress(section.cta_url) && <ExternalLinkIcon size={18} />}
    </OfferingLink>
  );
}

function ItemLinkRow({ link, onFollow }: { link: ItemLink; onFollow: OnFollowLink }) {
  return (
    <OfferingLink className="lc-offering-link" href={link.href} text={link.text} onFollow={onFollow}>
      <KindIcon kind={link.kind} />
      <span>
        <span className="lc-visually-hidden">{KIND_NAMES[link.kind]}: </span>
        {link.text}
      </span>
    </OfferingLink>
  );
}

function KeyValueRow({ item, onFollow }: { item: OfferingItem; onFollow: OnFollowLink }) {
  const link = itemLink(item);
  if (link) {
    return (
      <li className="lc-offering-kv__row">
        <ItemLinkRow link={link} onFollow={onFollow} />
      </li>
    );
  }
  return (
    <li className="lc-offering-kv__row lc-offering-kv__row--plain">
      <span className="lc-offering-kv__key">{item.key}</span>
      <span className="lc-offering-kv__value">{item.value}</span>
    </li>
  );
}

function SectionBody({ section, onFollow }: { section: OfferingSection; onFollow: OnFollowLink }) {
  switch (section.section_type) {
    case 'numbered':
      return (
        <ol className="lc-offering-steps">
          {section.items.map((item, index) => <li key={index}>{item.value}</li>)}
        </ol>
      );
    case 'key_value':
      return (
        <ul className="lc-offering-kv">
          {section.items.map((item, index) => <KeyValueRow key={index} item={item} onFollow={onFollow} />)}
        </ul>
      );
    case 'text':
      return section.items[0] ? <p className="lc-offering-text">{section.items[0].value}</p> : null;
  }
}

/** SPEC §2 Offering detail drawer: one section by its type (numbered, key_value or text), under its heading. */
export function OfferingSectionView({ section, onFollow }: { section: OfferingSection; onFollow: OnFollowLink }) {
  const headingId = useId();
  return (
    <section className={`lc-offering-section lc-offering-section--${section.section_type}`} aria-labelledby={headingId}>
      <h4 id={headingId} className="lc-offering-section__heading">{section.heading}</h4>
      <SectionBody section={section} onFollow={onFollow} />
      <SectionCta section={section} onFollow={onFollow} />
    </section>
  );
}

/**
 * SPEC §2 Offering detail drawer's header: provider logo and name, heading ('Partner offer' after it for products),
 * then the offering's name once its details are known. The drawer's own (hidden) title carries the heading for
 * screen readers.
 */
export function OfferingDetailHeader({ offering, name }: { offering: OfferingListItem; name: string | undefined }) {
  return (
    <header className="lc-offering-detail__header">
      <div className="lc-offering-detail__provider">
        <ProviderLogo offering={offering} className="lc-provider-logo lc-offering-detail__logo" />
        <p className="lc-offering-detail__provider-name">{offering.provider_name}</p>
      </div>
      <p className="lc-offering-detail__heading" aria-hidden="true">{offering.heading}</p>
      {offering.type === 'product' && <p className="lc-offering-detail__label">Partner offer</p>}
      {name !== undefined && <p className="lc-offering-detail__name">{name}</p>}
    </header>
  );
}

/** SPEC §2 the drawer's help block: its button starts the offering's request to the assistant. */
export function OfferingHelp({ cta, onRequest }: { cta: string; onRequest: () => void }) {
  return (
    <section className="lc-offering-help" aria-label="Help">
      <p className="lc-offering-help__text">Get help from your {PRODUCT_NAME} assistant</p>
      <Button onPress={onRequest}>{cta}</Button>
    </section>
  );
}
