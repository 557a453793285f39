import {
  FEATURED_OFFERINGS_LIMIT,
  type OfferingCategory,
  type OfferingDetail,
  type OfferingListItem,
  type OfferingType,
  OFFERING_TYPES,
  offeringCategoriesResponse,
  offeringResponse,
  offeringsResponse,
} from '../contract/offerings.ts';
import { api } from './http.ts';

/**
 * SPEC §7 Offerings. The address is written out by hand so that it reads exactly as the spec gives it
 * (`types=benefit,product`, the comma not escaped).
 */
function offeringsPath(types: readonly OfferingType[], options: { preferFeatured?: boolean; limit?: number } = {}): string {
  const query = [`types=${types.join(',')}`];
  if (options.preferFeatured) query.push('prefer_featured=true');
  if (options.limit !== undefined) query.push(`limit=${options.limit}`);
  return `offerings?${query.join('&')}`;
}

/** GET /api/v1/offerings?types=benefit,product (or one type), every offering the user may see. */
export async function fetchOfferings(types: readonly OfferingType[] = OFFERING_TYPES): Promise<OfferingListItem[]> {
  const client = await api();
  return (await client.get(offeringsPath(types)).json(offeringsResponse)).offerings;
}

/**
 * GET /api/v1/offerings?types={type}&prefer_featured=true&limit=6: the featured offerings of one type. The server
 * puts featured ones first and fills up with the others; SPEC §9 keeps the featured ones, and falls back to all of
 * them (up to the limit) when none is featured.
 */
export async function fetchFeaturedOfferings(type: OfferingType): Promise<OfferingListItem[]> {
  const client = await api();
  const path = offeringsPath([type], { preferFeatured: true, limit: FEATURED_OFFERINGS_LIMIT });
  const { offerings } = await client.get(path).json(offeringsResponse);
  const featured = offerings.filter((offering) => offering.featured);
  return featured.length > 0 ? featured : offerings;
}

/** GET /api/v1/offerings/search?q= (issue 32): the offerings the user may see whose words match. */
export async function searchOfferings(query: string): Promise<OfferingListItem[]> {
  const client = await api();
  return (await client.get('offerings/search', { searchParams: { q: query } }).json(offeringsResponse)).offerings;
}

/** GET /api/v1/offerings/{id}. */
export async function fetchOffering(id: number): Promise<OfferingDetail> {
  const client = await api();
  return (await client.get(`offerings/${id}`).json(offeringResponse)).offering;
}

/** GET /api/v1/offering_categories, in the filter bar's order. */
export async function fetchOfferingCategories(): Promise<OfferingCategory[]> {
  const client = await api();
  return (await client.get('offering_categories').json(offeringCategoriesResponse)).offering_categories;
}
