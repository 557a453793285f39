import * as z from 'zod/mini';
import { successBody } from './common.ts';

/**
 * SPEC §7 Offerings: the Benefits & Offers catalogue. Every answer carries `success: true` beside its payload:
 *
 * - GET /api/v1/offerings?types=benefit,product&prefer_featured=true&limit=6
 *     -> { success: true, offerings: OfferingListItem[] }
 * - GET /api/v1/offerings/{id}
 *     -> { success: true, offering: OfferingDetail }   (404 { error } for an unknown id or another company's benefit)
 * - GET /api/v1/offering_categories
 *     -> { success: true, offering_categories: OfferingCategory[] }
 *
 * Benefits are those of the caller's companies only; products (partner offers) are everyone's. A bad query is a
 * 422 { error, fields }.
 */

export const OFFERING_TYPES = ['benefit', 'product'] as const;
export type OfferingType = (typeof OFFERING_TYPES)[number];

export const SECTION_TYPES = ['numbered', 'key_value', 'text'] as const;
export type SectionType = (typeof SECTION_TYPES)[number];

/** key_value keys that render as links (SPEC §2 Offering detail drawer); any other key is a plain label. */
export const LINK_ITEM_KEYS = ['phone', 'email', 'download', 'link'] as const;
export type LinkItemKey = (typeof LINK_ITEM_KEYS)[number];

/** SPEC §9 "Featured offerings limit". */
export const FEATURED_OFFERINGS_LIMIT = 6;
/** The most offerings one list call returns. */
export const MAX_OFFERINGS_LIMIT = 100;

/** SPEC §9: the survey behind the landing page's 'Request help' button and the benefits' help buttons. */
export const BENEFITS_HELP_SURVEY = { id: 720, name: 'Help me with my benefits' } as const;

const OFFERING_TYPES_LIST = new RegExp(`^(${OFFERING_TYPES.join('|')})(,(${OFFERING_TYPES.join('|')}))*$`);
export const OFFERING_TYPES_ERROR = 'types must be benefit, product or both, separated by a comma';

/**
 * The list query. `types` is a comma-separated list of benefit and product (both when absent); `prefer_featured`
 * puts featured offerings first and fills up with the others (SPEC §9: the featured list falls back to all
 * offerings when none is featured); `limit` caps the answer.
 */
export const offeringsQuery = z.object({
  types: z._default(
    z.pipe(
      z.pipe(
        z.string().check(z.regex(OFFERING_TYPES_LIST, OFFERING_TYPES_ERROR)),
        z.transform((value: string) => value.split(',')),
      ),
      z.array(z.enum(OFFERING_TYPES)),
    ),
    [...OFFERING_TYPES],
  ),
  prefer_featured: z.pipe(
    z._default(z.enum(['true', 'false']), 'false'),
    z.transform((value: 'true' | 'false') => value === 'true'),
  ),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_OFFERINGS_LIMIT))),
});
/** What a client puts in the address, e.g. { types: 'benefit,product', prefer_featured: 'true', limit: 6 }. */
export type OfferingsQuery = z.input<typeof offeringsQuery>;


export const offeringListItem = z.object({
  id: z.number().check(z.int()),
  type: z.enum(OFFERING_TYPES),
  provider_name: z.string(),
  provider_logo_url: z.string(),
  heading: z.string(),
  subheading: z.string(),
  featured: z.boolean(),
  /** Category names, in the filter bar's order. */
  categories: z.array(z.string()),
});
export type OfferingListItem = z.infer<typeof offeringListItem>;

/** A row of a section. `key` (and, when the link goes elsewhere than the value, `external_url`): key_value only. */
export const offeringItem = z.object({
  value: z.string(),
  key: z.optional(z.string()),
  external_url: z.optional(z.string()),
});
export type OfferingItem = z.infer<typeof offeringItem>;

export const offeringSection = z.object({
  id: z.number().check(z.int()),
  section_type: z.enum(SECTION_TYPES),
  heading: z.string(),
  /** In order: the numbered list's order, the key_value rows' order; a text section shows the first. */
  items: z.array(offeringItem),
  /** The optional call-to-action link: both present or both null. */
  cta_text: z.nullable(z.string()),
  cta_url: z.nullable(z.string()),
});
export type OfferingSection = z.infer<typeof offeringSection>;

export const offeringDetail = z.extend(offeringListItem, {
  name: z.string(),
  sections: z.array(offeringSection),
  /** The help button's text; null when the offering has no help block. The three are null or set together. */
  request_survey_cta: z.nullable(z.string()),
  request_survey_id: z.nullable(z.number().check(z.int())),
  request_survey_name: z.nullable(z.string()),
});
export type OfferingDetail = z.infer<typeof offeringDetail>;

export const offeringCategory = z.object({
  external_id: z.string(),
  name: z.string(),
  image_url: z.string(),
});
export type OfferingCategory = z.infer<typeof offeringCategory>;

export const offeringsResponse = z.extend(successBody, { offerings: z.array(offeringListItem) });
export const offeringResponse = z.extend(successBody, { offering: offeringDetail });
export const offeringCategoriesResponse = z.extend(successBody, { offering_categories: z.array(offeringCategory) });
