/**
 * The zod-free part of the analytics contract (src/contract/analytics.ts builds its schemas on these and re-exports
 * them): the event names and limits the app's first page load needs (DESIGN §9 weight budget).
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

/** Longest free text and path an event or report may carry. */
export const MAX_TEXT = 2000;
export const MAX_PATH = 2048;
export const MAX_EVENTS_PER_BATCH = 50;

/** Longest error name, message and stack a report may carry; the client cuts longer ones to fit. */
export const ERROR_REPORT_LIMITS = { name: 200, message: MAX_TEXT, stack: 20_000 } as const;
