// Samples for `npm run flows` (scripts/flows.ts): ssoSignIn.machine.ts.

import type { SsoSignInInput } from '../../../src/machines/ssoSignIn.machine.ts';

/** On the sign-in screen, an address whose company enforces SSO, so that the printed paths reach the offer. */
export const flowSamples = {
  input: { entry: 'signIn' } satisfies SsoSignInInput,
  events: [
    { type: 'EMAIL_CHANGED', email: 'ana@northwind.test' },
    { type: 'xstate.done.actor.discover', output: { company_name: 'Northwind', mode: 'enforced', start_url: '/api/v1/sso/start?email=ana%40northwind.test' } },
  ],
};
