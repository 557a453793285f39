import * as z from 'zod/mini';

/**
 * The first-party analytics and error-report sink (SPEC §3 Analytics, §7 Telemetry):
 * POST /api/v1/analytics/events and POST /api/v1/analytics/errors.
 */

export const ANALYTICS_EVENT_NAMES = ['page_view', 'cta_click', 'request_survey_submit', 'sign_up', 'ui_interaction'] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

/** SPEC §3: element types, targets (the element ids of tracked controls) and the one category. */
export const ANALYTICS_ELEMENT_TYPES = ['button', 'link', 'offering_card'] as const;
export type AnalyticsElementType = (typeof ANALYTICS_ELEMENT_TYPES)[number];
export const ANALYTICS_TARGETS = [
  'create_custom_request',
  'create_custom_request_mobile',
  'explore_categories',
  'offering_benefit_card',
  'offering_product_card',
] as const;
export type AnalyticsTarget = (typeof ANALYTICS_TARGETS)[number];
export const ANALYTICS_CATEGORY = 'offering';

const MAX_TEXT = 2000;
const MAX_PATH = 2048;
export const MAX_EVENTS_PER_BATCH = 50;

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

/** Longest error name, message and stack a report may carry; the client cuts longer ones to fit. */
export const ERROR_REPORT_LIMITS = { name: 200, message: MAX_TEXT, stack: 20_000 } as const;

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

/** Route patterns whose parameter is a secret or personal (SPEC §2 route table), with the name shown instead. */
const ANONYMISED_ROUTES: ReadonlyArray<[RegExp, string]> = [
  [/^\/reset-password\/[^/]+\/unlock(\/\d+)?$/, '/reset-password/:unlockToken/unlock'],
  [/^\/reset-password\/[^/]+$/, '/reset-password/:resetToken'],
  [/^\/unlock\/[^/]+$/, '/unlock/:unlockToken'],
  [/^\/[^/]+\/unlock(\/\d+)?$/, '/:unlockToken/unlock'],
  [/^\/requests\/(?!category(\/|$))[^/]+$/, '/requests/:requestId'],
  [/^\/attachments\/.+$/, '/attachments/:fileKey'],
];

/**
 * SPEC §2: ResetPassword, Unlock (and its legacy links), Request and Attachment paths are reported with the
 * parameter name in place of its value, so tokens, request ids and file keys never reach analytics.
 */
export function anonymisePath(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const [pattern, anonymised] of ANONYMISED_ROUTES) {
    if (pattern.test(path)) return anonymised;
  }
  return path;
}
