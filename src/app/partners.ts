/**
 * SPEC §2 external redirects: product pages that live on partner sites. Each URL can be replaced at build time
 * with VITE_PARTNER_<SLUG in upper snake case>_URL (e.g. VITE_PARTNER_PET_INSURANCE_URL).
 */
export const PARTNER_PRODUCTS = {
  'term-life-insurance': 'https://partners.lifeconcierge.com/term-life-insurance',
  'auto-insurance': 'https://partners.lifeconcierge.com/auto-insurance',
  'home-insurance': 'https://partners.lifeconcierge.com/home-insurance',
  'home-warranty': 'https://partners.lifeconcierge.com/home-warranty',
  'renters-insurance': 'https://partners.lifeconcierge.com/renters-insurance',
  'pet-insurance': 'https://partners.lifeconcierge.com/pet-insurance',
  'wills-and-trusts': 'https://partners.lifeconcierge.com/wills-and-trusts',
} as const;

export type PartnerProduct = keyof typeof PARTNER_PRODUCTS;

export function partnerUrl(product: PartnerProduct, env: Record<string, unknown> = import.meta.env): string {
  const override = env[`VITE_PARTNER_${product.toUpperCase().replaceAll('-', '_')}_URL`];
  return typeof override === 'string' && override.length > 0 ? override : PARTNER_PRODUCTS[product];
}
