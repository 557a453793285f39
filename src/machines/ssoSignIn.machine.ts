import { type ActorRefFrom, assign, fromPromise, sendTo, setup } from 'xstate';
import { EMAIL_PATTERN } from '../contract/account.rules.ts';
import { SSO_FAILURE_MESSAGES, type SsoFailureReason, isSsoFailureReason } from '../contract/sso.constants.ts';
import type { SignInAnswer } from '../services/account.ts';
import { serverMessage } from '../services/http.ts';
import { leaveFor } from '../services/navigation.ts';
import { type SsoOffer, discoverSso, exchangeSsoCode } from '../services/sso.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';

/** How long the address must rest before its domain is looked up: a lookup per finished address, not per key. */
export const DISCOVERY_DELAY_MS = 400;
export const SSO_EXCHANGE_FAILED = 'This sign-in has expired or was already used. Please sign in again.';

/**
 * Where the flow starts: on /sign-in, watching the typed address; or on /sign-in/sso, where the server's callback
 * sent the browser back with `#code=` (a one-time code) or `#error=` (a reason) in the fragment.
 */
export type SsoSignInInput = { entry: 'signIn' } | { entry: 'return'; fragment: string };

export interface SsoSignInContext {
  email: string;
  /** The company SSO of the address's domain, once discovered. */
  offer: SsoOffer | null;
  /** The one-time code of the fragment, until it is exchanged. */
  code: string | null;
  /** Why the sign-in stopped, in words. */
  error: string | null;
}

export type SsoSignInEvent = { type: 'EMAIL_CHANGED'; email: string } | { type: 'CONTINUE' };

function outcomeOf(fragment: string): { code: string | null; error: string | null } {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const code = params.get('code');
  if (code) return { code, error: null };
  const reason = params.get('error') ?? '';
  const known: SsoFailureReason = isSsoFailureReason(reason) ? reason : 'state_mismatch';
  return { code: null, error: SSO_FAILURE_MESSAGES[known] };
}

const looksLikeAddress = (email: string) => EMAIL_PATTERN.test(email.trim());

/**
 * Single sign-on (issue 29): discovery as the address is typed (a company's SSO offers "Continue with <Company> SSO";
 * enforced SSO takes the password's place), the redirect to the identity provider, and on the way back the callback's
 * outcome: the one-time code becomes a session (handed to the session actor, which enters the app), or the reason
 * (cancelled, refused, state mismatch, expired...) is shown with a way to start again.
 */
export const ssoSignInMachine = setup({
  types: {
    context: {} as SsoSignInContext,
    events: {} as SsoSignInEvent,
    input: {} as SsoSignInInput,
  },
  actors: {
    discover: fromPromise<SsoOffer | null, { email: string }>(({ input }) => discoverSso(input.email.trim())),
    exchange: fromPromise<SignInAnswer, { code: string }>(({ input }) => exchangeSsoCode(input.code)),
  },
  actions: {
    assignEmail: assign({ email: (_, { email }: { email: string }) => email, offer: null }),
    goToProvider: (_, { startUrl }: { startUrl: string }) => leaveFor(startUrl),
    /** The code is spent: it leaves the address, so that a reload or the history cannot show it again. */
    forgetFragment: () => window.history.replaceState(window.history.state, '', window.location.pathname),
    handOver: sendTo(inSystem(SYSTEM_IDS.session), (_, { answer }: { answer: SignInAnswer }) => ({ type: 'SSO_SIGNED_IN' as const, answer })),
  },
  guards: {
    looksLikeAddress: (_, { email }: { email: string }) => looksLikeAddress(email),
    hasFailure: ({ context }) => context.error !== null,
    hasCode: ({ context }) => context.code !== null,
    offersSso: (_, { offer }: { offer: SsoOffer | null }) => offer !== null,
  },
  delays: { discoveryDelay: DISCOVERY_DELAY_MS },
}).createMachine({
  id: 'ssoSignIn',
  context: ({ input }) => ({
    email: '',
    offer: null,
    ...(input.entry === 'return' ? outcomeOf(input.fragment) : { code: null, error: null }),
  }),
  initial: 'signIn',
  states: {
    /** /sign-in: the address as it is typed. */
    signIn: {
      initial: 'idle',
      // Opened by the callback's return instead (/sign-in/sso): its outcome at once.
      always: [
        { guard: 'hasCode', target: 'returned.exchanging', actions: 'forgetFragment' },
        { guard: 'hasFailure', target: 'returned.failed', actions: 'forgetFragment' },
      ],
      on: {
        EMAIL_CHANGED: [
          {
            guard: { type: 'looksLikeAddress', params: ({ event }) => ({ email: event.email }) },
            target: '.waiting',
            actions: { type: 'assignEmail', params: ({ event }) => ({ email: event.email }) },
          },
          { target: '.idle', actions: { type: 'assignEmail', params: ({ event }) => ({ email: event.email }) } },
        ],
      },
      states: {
        /** No address that looks complete, or one whose domain has no SSO: the password form as usual. */
        idle: {},
        waiting: {
          after: { discoveryDelay: 'discovering' },
        },
        discovering: {
          invoke: {
            id: 'discover',
            src: 'discover',
            input: ({ context }) => ({ email: context.email }),
            onDone: [
              {
                guard: { type: 'offersSso', params: ({ event }) => ({ offer: event.output }) },
                target: 'offered',
                actions: assign({ offer: ({ event }) => event.output }),
              },
              { target: 'idle' },
            ],
            // Discovery is a convenience: when it fails, the password form stays as it is (the server still refuses a
            // password of an enforced domain, with its message).
            onError: 'idle',
          },
        },
        offered: {
          on: {
            CONTINUE: {
              target: 'redirecting',
              actions: { type: 'goToProvider', params: ({ context }) => ({ startUrl: context.offer!.start_url }) },
            },
          },
        },
        /** The browser is on its way to the identity provider. */
        redirecting: { tags: ['busy'] },
      },
    },
    /** /sign-in/sso: the identity provider's sign-in came back through the server's callback. */
    returned: {
      initial: 'exchanging',
      states: {
        exchanging: {
          tags: ['busy'],
          invoke: {
            id: 'exchange',
            src: 'exchange',
            input: ({ context }) => ({ code: context.code! }),
            onDone: {
              target: 'handedOver',
              actions: [assign({ code: null }), { type: 'handOver', params: ({ event }) => ({ answer: event.output }) }],
            },
            onError: {
              target: 'failed',
              actions: assign({ code: null, error: ({ event }) => serverMessage(event.error, SSO_EXCHANGE_FAILED) }),
            },
          },
        },
        /** The session enters the app (the remembered address, else the Dashboard; a new account's onboarding first). */
        handedOver: { type: 'final', tags: ['busy'] },
        failed: {},
      },
    },
  },
});

export type SsoSignInActor = ActorRefFrom<typeof ssoSignInMachine>;
