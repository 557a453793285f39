/** The shape of the database `npm run seed:scale` makes, which `scripts/bench-scale.ts` reads (issue 31). */

export const SCALE = {
  companies: 50,
  employees: 200_000,
  requests: 1_000_000,
  messages: 10_000_000,
  concierges: 50,
  heavyEmployees: 100,
  requestsPerHeavyEmployee: 50,
  /** Requests whose ordinal is a multiple of 1,000 have long threads. */
  longThreads: 1_000,
  longThreadMessages: 200,
  /** The known employee's longest thread: its request is the first one seeded. */
  longestThreadMessages: 2_000,
  /** "Now" of the seeded year: requests were issued over the 365 days before it. */
  anchor: '2026-11-27T00:00:00Z',
} as const;

export const scaleEmployeeEmail = (ordinal: number) => `employee${ordinal}@scale${String(((ordinal - 1) % SCALE.companies) + 1).padStart(2, '0')}.test`;
export const scaleConciergeEmail = (ordinal: number) => `concierge${ordinal}@scale-staff.test`;
/** The employee with the heavy history and the 2,000-message thread. */
export const KNOWN_EMPLOYEE_EMAIL = scaleEmployeeEmail(1);
export const SCALE_PASSWORD = process.env.SCALE_PASSWORD ?? 'scale-password';
