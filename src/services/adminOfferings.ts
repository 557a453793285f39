import {
  type AdminOffering,
  type AdminOfferingCategory,
  type AdminOfferingSummary,
  type CreateOfferingCategoryRequest,
  type CreateOfferingRequest,
  type UpdateOfferingCategoryRequest,
  type UpdateOfferingRequest,
  adminOfferingCategoriesResponse,
  adminOfferingCategoryResponse,
  adminOfferingResponse,
  adminOfferingsResponse,
} from '../contract/adminCatalogue.ts';
import { api } from './http.ts';

/**
 * The catalogue's offerings and offering categories in the console's admin area (src/contract/adminCatalogue.ts
 * describes each route). A failure is ky's HTTPError, whose fields (fieldErrorsOf) name the inputs at fault (422, 409).
 */

const offeringPath = (offeringId: number, action = '') => `admin/offerings/${offeringId}${action}`;
const categoryPath = (categoryId: number, action = '') => `admin/offering_categories/${categoryId}${action}`;

/** Every offering, published or not: benefits, then partner offers, each in order. */
export async function listOfferings(): Promise<AdminOfferingSummary[]> {
  const client = await api();
  return (await client.get('admin/offerings').json(adminOfferingsResponse)).offerings;
}

/** One offering with its sections. */
export async function fetchOffering(offeringId: number): Promise<AdminOffering> {
  const client = await api();
  return (await client.get(offeringPath(offeringId)).json(adminOfferingResponse)).offering;
}

/** A new offering: a draft, last among its type. */
export async function createOffering(offering: CreateOfferingRequest): Promise<AdminOffering> {
  const client = await api();
  return (await client.post('admin/offerings', { json: offering }).json(adminOfferingResponse)).offering;
}

/** Changes the fields given; categories, companies and sections replace the whole list. */
export async function updateOffering(offeringId: number, changes: UpdateOfferingRequest): Promise<AdminOffering> {
  const client = await api();
  return (await client.patch(offeringPath(offeringId), { json: changes }).json(adminOfferingResponse)).offering;
}

/** Puts the offering at this 0-based place among those of its type. */
export async function moveOffering(offeringId: number, position: number): Promise<AdminOffering> {
  const client = await api();
  const answer = client.post(offeringPath(offeringId, '/move'), { json: { position } });
  return (await answer.json(adminOfferingResponse)).offering;
}

export async function setOfferingFeatured(offeringId: number, featured: boolean): Promise<AdminOffering> {
  const client = await api();
  const answer = client.post(offeringPath(offeringId, featured ? '/feature' : '/unfeature'));
  return (await answer.json(adminOfferingResponse)).offering;
}

/** Only a published offering is shown to employees. */
export async function setOfferingPublished(offeringId: number, published: boolean): Promise<AdminOffering> {
  const client = await api();
  const answer = client.post(offeringPath(offeringId, published ? '/publish' : '/unpublish'));
  return (await answer.json(adminOfferingResponse)).offering;
}

/** Every offering category, in the filter bar's order, with its offering count. */
export async function listOfferingCategories(): Promise<AdminOfferingCategory[]> {
  const client = await api();
  return (await client.get('admin/offering_categories').json(adminOfferingCategoriesResponse)).categories;
}

/** A new category, placed last; its image is one uploaded through the uploads route. */
export async function createOfferingCategory(category: CreateOfferingCategoryRequest): Promise<AdminOfferingCategory> {
  const client = await api();
  return (await client.post('admin/offering_categories', { json: category }).json(adminOfferingCategoryResponse)).category;
}

export async function updateOfferingCategory(categoryId: number, changes: UpdateOfferingCategoryRequest): Promise<AdminOfferingCategory> {
  const client = await api();
  const answer = client.patch(categoryPath(categoryId), { json: changes });
  return (await answer.json(adminOfferingCategoryResponse)).category;
}

/** Puts the category at this 0-based place in the filter bar. */
export async function moveOfferingCategory(categoryId: number, position: number): Promise<AdminOfferingCategory> {
  const client = await api();
  const answer = client.post(categoryPath(categoryId, '/move'), { json: { position } });
  return (await answer.json(adminOfferingCategoryResponse)).category;
}
