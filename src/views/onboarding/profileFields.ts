import { ONBOARDING_ANSWER_IDS as IDS } from '../../contract/surveys.ts';
import type { AboutYouChoice } from '../../machines/onboarding.machine.ts';

/**
 * The words of the onboarding answers, shared by onboarding (steps 2 and 3) and Account Settings' profile, which
 * edits the same answers later.
 */

/** SPEC §2/§3 about-you choices, with the kind of help each one brings. */
export const ABOUT_YOU_CHOICES: { answerId: AboutYouChoice; title: string; description: string }[] = [
  { answerId: IDS.ownHome, title: 'I own a home', description: 'Repairs, cleaning, moving and home insurance' },
  { answerId: IDS.ownOrLeaseCar, title: 'I own or lease a car', description: 'Registration, service, tickets and insurance' },
  { answerId: IDS.parent, title: "I'm a parent", description: 'Babysitters, camps, schools and parties' },
  { answerId: IDS.pet, title: 'I have a pet', description: 'Vets, sitters, walkers and grooming' },
  { answerId: IDS.partner, title: 'I have a partner', description: 'Trips, gifts and plans for two' },
];

export const ADDRESS_LABELS = {
  addressLine1: { label: 'Street address', autoComplete: 'address-line1' },
  addressLine2: { label: 'Apartment, suite, etc.', autoComplete: 'address-line2' },
  city: { label: 'City', autoComplete: 'address-level2' },
  state: { label: 'State', autoComplete: 'address-level1' },
  postalCode: { label: 'Postal code', autoComplete: 'postal-code' },
  country: { label: 'Country', autoComplete: 'country-name' },
} as const;

export type AddressField = keyof typeof ADDRESS_LABELS;
export const ADDRESS_FIELDS = Object.keys(ADDRESS_LABELS) as AddressField[];
