/**
 * A small Benefits & Offers catalogue and a fake of the SPEC §7 Offerings API over it, shared by the model-based
 * tests of the catalogue and the drawer. The fake answers like the server: `types` filters, `prefer_featured` puts
 * featured offerings first (keeping the catalogue order otherwise), `limit` cuts.
 */
import type { OfferingCategory, OfferingDetail, OfferingListItem } from '../../src/contract/offerings.ts';

export const CATEGORIES: OfferingCategory[] = [
  { external_id: 'health', name: 'Health', image_url: '/seed/offerings/categories/health.svg' },
  { external_id: 'wellness', name: 'Wellness', image_url: '/seed/offerings/categories/wellness.svg' },
  { external_id: 'financial', name: 'Financial', image_url: '/seed/offerings/categories/financial.svg' },
  { external_id: 'pet', name: 'Pet', image_url: '/seed/offerings/categories/pet.svg' },
  { external_id: 'legal', name: 'Legal', image_url: '/seed/offerings/categories/legal.svg' },
];

const listItem = (
  id: number,
  type: OfferingListItem['type'],
  provider: string,
  heading: string,
  subheading: string,
  featured: boolean,
  categories: string[],
): OfferingListItem => ({
  id,
  type,
  provider_name: provider,
  provider_logo_url: `/seed/offerings/logos/${provider.toLowerCase().replaceAll(' ', '-')}.svg`,
  heading,
  subheading,
  featured,
  categories,
});

export const MEDICAL = listItem(1, 'benefit', 'Meridian Health Plans', 'Medical coverage', 'PPO and HDHP plans', true, ['Health']);
export const DENTAL = listItem(2, 'benefit', 'BrightSmile Dental', 'Dental coverage', 'Two cleanings a year', false, ['Health']);
export const RETIREMENT = listItem(3, 'benefit', 'Evergreen Accounts', '401(k) match', 'We match 5% of your pay', true, ['Financial']);
export const GYM = listItem(11, 'product', 'FitLoop', 'Gym memberships', 'Up to 40% off', true, ['Health', 'Wellness']);
export const MEAL_KITS = listItem(12, 'product', 'Fresh Fork', 'Meal kits', '50% off your first box', false, ['Wellness']);
export const PET_INSURANCE = listItem(13, 'product', 'PawPal', 'Pet insurance', '15% off every plan', false, ['Pet']);

/** Benefits before partner offers, as the server lists them. */
export const CATALOGUE: OfferingListItem[] = [MEDICAL, DENTAL, RETIREMENT, GYM, MEAL_KITS, PET_INSURANCE];

/** A benefit with every section type, every link kind, plain rows and a help block. */
export const MEDICAL_DETAIL: OfferingDetail = {
  ...MEDICAL,
  name: 'Meridian Choice PPO',
  request_survey_cta: 'Ask a concierge to help me enroll',
  request_survey_id: 720,
  request_survey_name: 'Help me with my benefits',
  sections: [
    {
      id: 101,
      section_type: 'numbered',
      heading: 'How to enroll',
      items: [{ value: 'Sign in to the benefits portal.' }, { value: 'Compare the plans.' }, { value: 'Confirm.' }],
      cta_text: 'Open the benefits portal',
      cta_url: 'https://benefits.example.com/enroll',
    },
    {
      id: 102,
      section_type: 'key_value',
      heading: 'Contact Meridian',
      items: [
        { key: 'phone', value: '(800) 555-0142' },
        { key: 'email', value: 'members@meridian.example.com' },
        { key: 'Hours', value: 'Monday to Friday, 8am-8pm ET' },
        { key: 'link', value: 'www.meridian.example.com/find-care' },
        { key: 'download', value: 'Summary of Benefits (PDF)', external_url: 'https://meridian.example.com/summary.pdf' },
      ],
      cta_text: null,
      cta_url: null,
    },
    {
      id: 103,
      section_type: 'text',
      heading: 'Preventive care at no cost',
      items: [{ value: 'Annual physicals are covered at 100%.' }, { value: 'A second item the text section leaves out.' }],
      cta_text: 'Find a doctor',
      cta_url: 'https://meridian.example.com/find-care',
    },
  ],
};

/** A partner offer without a help block. */
export const GYM_DETAIL: OfferingDetail = {
  ...GYM,
  name: 'FitLoop All-Access Membership',
  request_survey_cta: null,
  request_survey_id: null,
  request_survey_name: null,
  sections: [
    {
      id: 201,
      section_type: 'text',
      heading: 'Train anywhere',
      items: [{ value: 'More than 10,000 gyms and studios.' }],
      cta_text: null,
      cta_url: null,
    },
  ],
};

export const DETAILS: Record<number, OfferingDetail> = { [MEDICAL.id]: MEDICAL_DETAIL, [GYM.id]: GYM_DETAIL };

export interface FakeOfferingsApi {
  offerings: OfferingListItem[];
  categories: OfferingCategory[];
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The answer the server gives to one request of SPEC §7 Offerings: its path under /api/v1/, and its query. */
export function offeringsAnswer(api: FakeOfferingsApi, { path, query = {} }: { path: string; query?: Record<string, string> }): Response {
  if (path === 'offering_categories') return json({ success: true, offering_categories: api.categories });
  const detail = /^offerings\/(\d+)$/.exec(path);
  if (detail) {
    const offering = DETAILS[Number(detail[1])];
    return offering ? json({ success: true, offering }) : json({ error: 'Offering not found' }, 404);
  }
  if (path === 'offerings') {
    const types = (query.types ?? 'benefit,product').split(',');
    let offerings = api.offerings.filter((offering) => types.includes(offering.type));
    if (query.prefer_featured === 'true') {
      offerings = [...offerings.filter((offering) => offering.featured), ...offerings.filter((offering) => !offering.featured)];
    }
    return json({ success: true, offerings: query.limit ? offerings.slice(0, Number(query.limit)) : offerings });
  }
  return json({ error: 'Not found' }, 404);
}

/** The same answer, to a request as fetch sends it. */
export function answerOfferingsRequest(api: FakeOfferingsApi, request: Request): Response {
  const url = new URL(request.url);
  return offeringsAnswer(api, { path: url.pathname.replace(/^\/api\/v1\//, ''), query: Object.fromEntries(url.searchParams) });
}

export const SERVER_FAILURE = () => json({ error: 'An unexpected error occurred' }, 500);
