import { describe, expect, it } from 'vitest';
import { currentUserResponse } from '../../src/contract/account.ts';
import {
  ANSWER_ERRORS,
  ONBOARDING_ANSWER_IDS as IDS,
  type OnboardingAnswer,
  onboardingAnswersResponse,
} from '../../src/contract/surveys.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import { type TestUser, apiGet, createSignedInUser, json, saveOnboarding } from './surveys.helpers.ts';

const context = suiteContext();

async function savedAnswers(user: TestUser): Promise<OnboardingAnswer[]> {
  return onboardingAnswersResponse.parse(json(await apiGet(context, user, '/api/v1/onboarding_answers'), 200)).answers;
}

async function onboardingRequired(user: TestUser): Promise<boolean> {
  return currentUserResponse.parse(json(await apiGet(context, user, '/api/v1/users/current'), 200)).user.onboarding_required;
}

const address = (parts: Partial<Record<'line1' | 'line2' | 'city' | 'state' | 'postal' | 'country', string>>): OnboardingAnswer => ({
  answer_id: IDS.address,
  value: [
    { answer_id: IDS.addressLine1, value: parts.line1 ?? '' },
    { answer_id: IDS.addressLine2, value: parts.line2 ?? '' },
    { answer_id: IDS.city, value: parts.city ?? '' },
    { answer_id: IDS.state, value: parts.state ?? '' },
    { answer_id: IDS.postalCode, value: parts.postal ?? '' },
    { answer_id: IDS.country, value: parts.country ?? '' },
  ],
});

const fullAddress = { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal: '95014', country: 'United States' };

describe('onboarding answers', () => {
  it('start empty and are saved step by step, as the screens send them', async () => {
    const user = await createSignedInUser(context);
    expect(await savedAnswers(user)).toEqual([]);

    // Step 2, AboutYou.
    json(
      await saveOnboarding(context, user, {
        answers: [
          { answer_id: IDS.ownHome, value: false },
          { answer_id: IDS.pet, value: true },
        ],
      }),
      200,
    );
    // Step 3, ContactInfo, which also ends onboarding.
    const response = await saveOnboarding(context, user, {
      answers: [
        { answer_id: IDS.phone, value: '(212) 555-0100' },
        { answer_id: IDS.preferredEmail, value: ' Grace@Example.COM ' },
        address(fullAddress),
      ],
      completed: true,
    });
    expect(json(response, 200)).toEqual({ success: true });

    expect(await savedAnswers(user)).toEqual([
      { answer_id: IDS.ownHome, value: false },
      { answer_id: IDS.pet, value: true },
      { answer_id: IDS.phone, value: '2125550100' },
      { answer_id: IDS.preferredEmail, value: 'grace@example.com' },
      {
        answer_id: IDS.address,
        value: [
          { answer_id: IDS.addressLine1, value: '1 Infinite Loop' },
          { answer_id: IDS.city, value: 'Cupertino' },
          { answer_id: IDS.state, value: 'CA' },
          { answer_id: IDS.postalCode, value: '95014' },
          { answer_id: IDS.country, value: 'United States' },
        ],
      },
    ]);
  });

  it('replace earlier answers, and empty values clear them', async () => {
    const user = await createSignedInUser(context);
    json(
      await saveOnboarding(context, user, {
        answers: [{ answer_id: IDS.parent, value: true }, { answer_id: IDS.phone, value: '2125550100' }, address(fullAddress)],
      }),
      200,
    );
    json(
      await saveOnboarding(context, user, {
        answers: [{ answer_id: IDS.parent, value: false }, { answer_id: IDS.phone, value: '' }, address({})],
      }),
      200,
    );
    expect(await savedAnswers(user)).toEqual([{ answer_id: IDS.parent, value: false }]);
  });

  it('end onboarding only when completed', async () => {
    const user = await createSignedInUser(context);
    expect(await onboardingRequired(user)).toBe(true);
    json(await saveOnboarding(context, user, { answers: [{ answer_id: IDS.ownOrLeaseCar, value: true }] }), 200);
    expect(await onboardingRequired(user)).toBe(true);
    json(await saveOnboarding(context, user, { answers: [], completed: true }), 200);
    expect(await onboardingRequired(user)).toBe(false);
  });

  it('belong to their user only', async () => {
    const user = await createSignedInUser(context);
    const neighbour = await createSignedInUser(context);
    json(await saveOnboarding(context, user, { answers: [{ answer_id: IDS.partner, value: true }] }), 200);
    expect(await savedAnswers(neighbour)).toEqual([]);
  });
});

describe('onboarding answer rules', () => {
  it('apply the Contact info address rule: line 2 alone may be left out', async () => {
    const user = await createSignedInUser(context);
    const partial = await saveOnboarding(context, user, { answers: [address({ line1: '1 Infinite Loop', state: 'CA' })] });
    expect(partial.statusCode).toBe(422);
    expect(partial.json()).toEqual({
      error: 'Please enter the city, postal code and country of your address.',
      fields: {
        [`answers.${IDS.address}.${IDS.city}`]: 'Please enter the city',
        [`answers.${IDS.address}.${IDS.postalCode}`]: 'Please enter the postal code',
        [`answers.${IDS.address}.${IDS.country}`]: 'Please enter the country',
      },
    });
    const onlyLine2 = await saveOnboarding(context, user, { answers: [address({ line2: 'Suite 200' })] });
    expect(errorOf(onlyLine2)).toBe('Please enter the address line 1, city, state, postal code and country of your address.');
    json(await saveOnboarding(context, user, { answers: [address(fullAddress)] }), 200);
  });

  it('check phone and e-mail, and save nothing of a call with a bad answer', async () => {
    const user = await createSignedInUser(context);
    const badPhone = await saveOnboarding(context, user, {
      answers: [{ answer_id: IDS.pet, value: true }, { answer_id: IDS.phone, value: '555-0100' }],
    });
    expect(badPhone.statusCode).toBe(422);
    expect(badPhone.json()).toEqual({ error: ANSWER_ERRORS.phone, fields: { [`answers.${IDS.phone}`]: ANSWER_ERRORS.phone } });
    const badEmail = await saveOnboarding(context, user, { answers: [{ answer_id: IDS.preferredEmail, value: 'grace@' }] });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json()).toEqual({ error: ANSWER_ERRORS.email, fields: { [`answers.${IDS.preferredEmail}`]: ANSWER_ERRORS.email } });
    expect(await savedAnswers(user)).toEqual([]);
  });

  it('accept only the answer ids and value types of the spec', async () => {
    const user = await createSignedInUser(context);
    const refused = [
      { answer_id: 999, value: true },
      { answer_id: IDS.pet, value: 'yes' },
      { answer_id: IDS.phone, value: 2125550100 },
      { answer_id: IDS.address, value: [{ answer_id: IDS.pet, value: 'x' }] },
    ];
    for (const answer of refused) {
      const response = await context.app.inject({
        method: 'POST',
        url: '/api/v1/onboarding_answers',
        headers: user.headers,
        payload: { answers: [answer] },
      });
      expect(response.statusCode, JSON.stringify(answer)).toBe(422);
    }
  });
});
