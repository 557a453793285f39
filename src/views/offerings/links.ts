import { LINK_ITEM_KEYS, type LinkItemKey, type OfferingItem } from '../../contract/offerings.ts';

/** A key_value row drawn as a link. */
export interface ItemLink {
  kind: LinkItemKey;
  href: string;
  /** What the link reads: the row's value. */
  text: string;
  /** Web addresses open in a new tab; tel: and mailto: hand over to the phone or mail app. */
  opensNewTab: boolean;
}

function isLinkKey(key: string | undefined): key is LinkItemKey {
  return (LINK_ITEM_KEYS as readonly string[]).includes(key ?? '');
}

/** SPEC §2: a link without a scheme gets https:// in front. */
export function withHttps(address: string): string {
  const trimmed = address.trim();
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** SPEC §2: a phone number is dialled with its digits and plus signs only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function isWebAddress(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/**
 * SPEC §2 key_value rows: link uses the external url or the value (https:// prefixed when missing); download uses
 * the external url; phone the external url or tel: with digits and plus; email the external url or mailto:.
 * Null: the row is a label and a value (any other key, or a download without an address).
 */
export function itemLink(item: OfferingItem): ItemLink | null {
  const { key, value, external_url: externalUrl } = item;
  if (!isLinkKey(key)) return null;
  const href = (() => {
    switch (key) {
      case 'link':
        return externalUrl ?? withHttps(value);
      case 'download':
        return externalUrl ?? null;
      case 'phone':
        return externalUrl ?? telHref(value);
      case 'email':
        return externalUrl ?? `mailto:${value.trim()}`;
    }
  })();
  return href === null ? null : { kind: key, href, text: value, opensNewTab: isWebAddress(href) };
}
