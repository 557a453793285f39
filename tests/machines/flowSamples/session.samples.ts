// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: session.machine.ts.

import type { User } from '../../../src/contract/account.ts';
import type { SignInAnswer } from '../../../src/services/account.ts';

const SAMPLE_USER: User = {
  external_id: 'sample-user',
  full_name: 'Sample Member',
  first_name: 'Sample',
  initials: 'SM',
  email: 'member@example.com',
  request_count: 0,
  companies: [],
  role: 'employee',
  internal_user: false,
  onboarding_required: true,
  mfa_enrolled: false,
  mfa_phone_last_digits: null,
  email_confirmation_pending: false,
};
const sampleAnswer = (flags: Partial<SignInAnswer>): SignInAnswer => ({
  token: 'sample-token',
  expires_at: '2099-01-01T00:00:00.000Z',
  mfa_required: false,
  mfa_requires_verification: false,
  mfa_enrollment_available: false,
  ...flags,
});

/**
 * Sample payloads for `npm run flows`: nothing or a user to restore, each kind of sign-in answer, a loaded user and an
 * MFA token, so that the printed paths go past the calls.
 */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.restoreSession', output: null },
    { type: 'xstate.done.actor.restoreSession', output: SAMPLE_USER },
    ...[{}, { mfa_required: true }, { mfa_requires_verification: true }, { mfa_enrollment_available: true }].flatMap(
      (flags) => [
        { type: 'xstate.done.actor.signIn', output: sampleAnswer(flags) },
        { type: 'xstate.done.actor.signUp', output: { answer: sampleAnswer(flags), companySlug: 'sample' } },
      ],
    ),
    { type: 'xstate.done.actor.fetchCurrentUser', output: SAMPLE_USER },
    { type: 'xstate.done.actor.refreshUser', output: SAMPLE_USER },
    { type: 'xstate.done.actor.verifyCode', output: 'sample-mfa-token' },
  ],
};
