import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { companies, uploads } from './schema.ts';
import { searchDocument } from './textSearch.ts';

/** The Benefits & Offers catalogue (SPEC §3 Offering, Offering detail, Section, Item, Offering category). */

export const offeringType = pgEnum('offering_type', ['benefit', 'product']);
export const offeringSectionType = pgEnum('offering_section_type', ['numbered', 'key_value', 'text']);

/**
 * An employer benefit (type benefit, given to one or more companies in offering_companies, seen only by their
 * employees) or a partner offer (type product, given to no company, seen by everyone). Only a published offering is
 * shown to employees.
 */
export const offerings = pgTable(
  'offerings',
  {
    id: serial('id').primaryKey(),
    /** Stable name of a catalogue entry, so that two processes loading the catalogue at once never duplicate it. */
    slug: text('slug').notNull().unique(),
    type: offeringType('type').notNull(),
    providerName: text('provider_name').notNull(),
    providerLogoUrl: text('provider_logo_url').notNull(),
    heading: text('heading').notNull(),
    subheading: text('subheading').notNull(),
    featured: boolean('featured').notNull().default(false),
    name: text('name').notNull(),
    /** The help button's text; with it the id and name of the request survey the button starts. */
    requestSurveyCta: text('request_survey_cta'),
    /** A request survey by id and name only: the survey catalogue is kept apart from this one. */
    requestSurveyId: integer('request_survey_id'),
    requestSurveyName: text('request_survey_name'),
    /** Order within its type (benefits, then partner offers), set in the admin area. */
    position: integer('position').notNull().default(0),
    /** Catalogue entries from before the admin area are live; an admin's new offering starts as a draft. */
    published: boolean('published').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [
    // The employee's search of the catalogue (issue 32); category names are matched through their links.
    index('offerings_search_idx').using('gin', searchDocument(table.name, table.providerName, table.heading)),
    check(
      'offerings_help_survey_complete',
      sql`(${table.requestSurveyCta} is null) = (${table.requestSurveyId} is null) and (${table.requestSurveyId} is null) = (${table.requestSurveyName} is null)`,
    ),
  ],
);

/** The companies a benefit is given to: their employees see it. */
export const offeringCompanies = pgTable(
  'offering_companies',
  {
    offeringId: integer('offering_id').notNull().references(() => offerings.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.offeringId, table.companyId] }), index('offering_companies_company_idx').on(table.companyId)],
);

export const offeringCategories = pgTable('offering_categories', {
  id: serial('id').primaryKey(),
  externalId: text('external_id').notNull().unique(),
  /** Offerings name their categories on the wire, and the full page filters by this name. */
  name: text('name').notNull().unique(),
  imageUrl: text('image_url').notNull(),
  /** Set when the image was uploaded in the admin area; then image_url is its catalogueImagePath. */
  imageUploadKey: text('image_upload_key').references((): AnyPgColumn => uploads.key, { onDelete: 'set null' }),
  /** Order of the tiles in the filter bar. */
  position: integer('position').notNull(),
});

export const offeringCategoryLinks = pgTable(
  'offering_category_links',
  {
    offeringId: integer('offering_id').notNull().references(() => offerings.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id').notNull().references(() => offeringCategories.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.offeringId, table.categoryId] }),
    index('offering_category_links_category_idx').on(table.categoryId),
  ],
);

export const offeringSections = pgTable(
  'offering_sections',
  {
    id: serial('id').primaryKey(),
    offeringId: integer('offering_id').notNull().references(() => offerings.id, { onDelete: 'cascade' }),
    sectionType: offeringSectionType('section_type').notNull(),
    heading: text('heading').notNull(),
    ctaText: text('cta_text'),
    ctaUrl: text('cta_url'),
    position: integer('position').notNull(),
  },
  (table) => [
    unique('offering_sections_position_unique').on(table.offeringId, table.position),
    check('offering_sections_cta_complete', sql`(${table.ctaText} is null) = (${table.ctaUrl} is null)`),
  ],
);

export const offeringSectionItems = pgTable(
  'offering_section_items',
  {
    id: serial('id').primaryKey(),
    sectionId: integer('section_id').notNull().references(() => offeringSections.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    /** key_value rows only: phone, email, download and link render as links, any other key as a plain label. */
    key: text('key'),
    externalUrl: text('external_url'),
    position: integer('position').notNull(),
  },
  (table) => [unique('offering_section_items_position_unique').on(table.sectionId, table.position)],
);
