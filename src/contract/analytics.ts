import * as z from 'zod/mini';
import {
  ANALYTICS_CATEGORY,
  ANALYTICS_ELEMENT_TYPES,
  ANALYTICS_TARGETS,
  ERROR_REPORT_LIMITS,
  MAX_EVENTS_PER_BATCH,
  MAX_PATH,
  MAX_TEXT,
  type AnalyticsEventName,
} from './analytics.constants.ts';

export {
  ANALYTICS_CATEGORY,
  ANALYTICS_ELEMENT_TYPES,
  ANALYTICS_EVENT_NAMES,
  ANALYTICS_TARGETS,
  ERROR_REPORT_LIMITS,
  MAX_EVENTS_PER_BATCH,
  type AnalyticsElementType,
  type AnalyticsEventName,
  type AnalyticsTarget,
} from './analytics.constants.ts';
export { anonymisePath } from './analytics.paths.ts';

/**
 * The first-party analytics and error-report sink (SPEC §3 Analytics, §7 Telemetry):
 * POST /api/v1/analytics/events and POST /api/v1/analytics/errors.
 */

const offeringId = z.union([z.number().check(z.int()), z.string().check(z.minLength(1), z.maxLength(100))]);
const offeringFields = z.object({
  offering_id: offeringId,
  provider_name: z.string().check(z.maxLength(MAX_TEXT)),
  featured: z.boolean(),
});
const occurredAt = z.iso.datetime({ offset: true });

const pageView = z.object({
  name: z.literal('page_view'),
  properties: z.object({ path: z.string().check(z.minLength(1), z.maxLength(MAX_PATH)) }),
  occurred_at: occurredAt,
});
/** A card click, or a click on one of the tracked buttons and links (create request, explore categories). */
const uiInteraction = z.object({
  name: z.literal('ui_interaction'),
  properties: z.extend(z.partial(offeringFields), {
    element_type: z.enum(ANALYTICS_ELEMENT_TYPES),
    element_id: z.enum(ANALYTICS_TARGETS),
    category: z.optional(z.literal(ANALYTICS_CATEGORY)),
  }),
  occurred_at: occurredAt,
});
/** A call-to-action link in the offering drawer. */
const ctaClick = z.object({
  name: z.literal('cta_click'),
  properties: z.extend(offeringFields, {
    cta_type: z.literal(ANALYTICS_CATEGORY),
    text: z.string().check(z.maxLength(MAX_TEXT)),
    url: z.string().check(z.maxLength(MAX_PATH)),
  }),
  occurred_at: occurredAt,
});
const requestSurveySubmit = z.object({
  name: z.literal('request_survey_submit'),
  properties: z.object({ survey_id: offeringId, survey_name: z.string().check(z.maxLength(MAX_TEXT)) }),
  occurred_at: occurredAt,
});
const signUp = z.object({
  name: z.literal('sign_up'),
  properties: z.object({ company_slug: z.optional(z.string().check(z.maxLength(100))) }),
  occurred_at: occurredAt,
});

export const analyticsEvent = z.discriminatedUnion('name', [pageView, uiInteraction, ctaClick, requestSurveySubmit, signUp]);
export type AnalyticsEvent = z.infer<typeof analyticsEvent>;
/** The properties each event name carries, e.g. `AnalyticsProperties<'cta_click'>`. */
export type AnalyticsProperties<N extends AnalyticsEventName> = Extract<AnalyticsEvent, { name: N }>['properties'];

/** SPEC §3 user property, sent with every batch and report of a signed-in user. */
export const userProperties = z.object({ internal_user: z.boolean() });
export type UserProperties = z.infer<typeof userProperties>;

export const analyticsBatch = z.object({
  /** The configured analytics id (VITE_ANALYTICS_ID): which deployment of the app sent the batch. */
  analytics_id: z.string().check(z.minLength(1), z.maxLength(200)),
  user_properties: z.optional(userProperties),
  events: z.array(analyticsEvent).check(z.minLength(1), z.maxLength(MAX_EVENTS_PER_BATCH)),
});
export type AnalyticsBatch = z.infer<typeof analyticsBatch>;

export const analyticsAccepted = z.object({ accepted: z.number().check(z.int(), z.nonnegative()) });

/** SPEC §8 "Error boundary reports": the component name, feature, and the failed response when there was one. */
export const clientErrorReport = z.object({
  analytics_id: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.maxLength(ERROR_REPORT_LIMITS.name)),
  message: z.string().check(z.maxLength(ERROR_REPORT_LIMITS.message)),
  stack: z.optional(z.string().check(z.maxLength(ERROR_REPORT_LIMITS.stack))),
  component: z.optional(z.string().check(z.maxLength(200))),
  feature: z.optional(z.string().check(z.maxLength(200))),
  /** The page's path, anonymised like page views. */
  path: z.string().check(z.minLength(1), z.maxLength(MAX_PATH)),
  response: z.optional(
    z.object({
      status: z.number().check(z.int()),
      status_text: z.string().check(z.maxLength(MAX_TEXT)),
      data: z.optional(z.json()),
    }),
  ),
  user_properties: z.optional(userProperties),
  occurred_at: occurredAt,
});
export type ClientErrorReport = z.infer<typeof clientErrorReport>;
