import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SnapshotFrom, fromPromise } from 'xstate';
import { AppSystemProvider } from '../../src/machines/appSystem.tsx';
import type { SessionActor } from '../../src/machines/app.machine.ts';
import { appOfSession, startSessionInApp } from './appSystem.support.tsx';
import type { User } from '../../src/contract/account.ts';
import type { OnboardingAnswer, OnboardingAnswersRequest } from '../../src/contract/surveys.ts';
import {
  type ContactInfo as Contact,
  ONBOARDING_MESSAGES,
  type OnboardingStep,
  onboardingMachine,
} from '../../src/machines/onboarding.machine.ts';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import { setRouter } from '../../src/services/navigation.ts';
import AboutUs from '../../src/views/onboarding/AboutUs.tsx';
import AboutYou from '../../src/views/onboarding/AboutYou.tsx';
import ContactInfo from '../../src/views/onboarding/ContactInfo.tsx';
import { networkError } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type LabelledEvent,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { ERROR_REPORTS_ROUTE, type SentCall, fakeNetwork, reportErrorsToTheServer, reportedErrors } from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

reportErrorsToTheServer();

type Machine = typeof onboardingMachine;

const USER = employeeUser(
  { external_id: 'u-7', full_name: 'Nora Quinn', first_name: 'Nora', initials: 'NQ', email: 'nora@acme.test' },
  { onboarding_required: true },
);

const PATHS: Record<OnboardingStep, string> = {
  aboutUs: '/welcome/about-us',
  aboutYou: '/welcome/about-you',
  contactInfo: '/welcome/contact-info',
};
const HEADINGS: Record<OnboardingStep, string> = {
  aboutUs: 'Welcome to Life Concierge',
  aboutYou: 'Tell us about you',
  contactInfo: 'How can we reach you?',
};

/** What was saved before: a pet, and a phone (the contact step shows it masked). */
const SAVED: OnboardingAnswer[] = [
  { answer_id: 122, value: true },
  { answer_id: 104, value: '2125551212' },
];
const networkFailure = networkError();
/** What a failed load or save reports (SPEC §8): the network failure (ky's NetworkError), from the onboarding. */
const FAILURE_REPORT = expect.objectContaining({ name: 'NetworkError', component: 'Onboarding', feature: 'onboarding' });

let user: UserEvent;
let session: SessionActor;
let sent: SentCall[];
const refreshUser = vi.fn(async (): Promise<User> => ({ ...USER, onboarding_required: false }));

function startSession(): SessionActor {
  return startSessionInApp(sessionMachine.provide({
      actors: {
        restoreSession: fromPromise<User | null>(async () => USER),
        fetchCurrentUser: fromPromise<User>(() => refreshUser()),
      },
    }));
}

function renderStep(step: OnboardingStep) {
  const router = createMemoryRouter(
    [
      { path: PATHS.aboutUs, element: <AboutUs /> },
      { path: PATHS.aboutYou, element: <AboutYou /> },
      { path: PATHS.contactInfo, element: <ContactInfo /> },
      { path: '/dashboard', element: <h1>Dashboard page</h1> },
    ],
    { initialEntries: [PATHS[step]] },
  );
  setRouter(router);
  render(
    <AppSystemProvider actor={appOfSession(session)}>
      <RouterProvider router={router} />
    </AppSystemProvider>,
  );
  return router;
}

/** The chart of the step under test, even after its screen has gone (the next step runs its own). */
function stepActorSnapshot(): SnapshotFrom<Machine> {
  return inspectedActors.snapshotOf(onboardingMachine, 'first');
}

const stepOf = (snapshot: { context: { step: OnboardingStep } }) => snapshot.context.step;
const continueButton = () => screen.getByRole('button', { name: /^(Continue|Finish)/ });

/** SPEC §2: the 3-step progress bar. */
function expectProgress(step: OnboardingStep) {
  const number = ['aboutUs', 'aboutYou', 'contactInfo'].indexOf(step) + 1;
  const bar = screen.getByRole('progressbar', { name: 'Getting started' });
  expect(bar).toHaveAttribute('aria-valuetext', `Step ${number} of 3`);
  expect(bar).toHaveAttribute('aria-valuenow', String(Math.round((number / 3) * 100)));
}

/** What the contact step must send for what was typed (SPEC §3 ids, the phone as 10 digits). */
function expectedContactAnswers(contact: Contact): OnboardingAnswersRequest {
  const address = (
    [
      [148, contact.addressLine1],
      [149, contact.addressLine2],
      [150, contact.city],
      [151, contact.state],
      [311, contact.postalCode],
      [313, contact.country],
    ] as const
  )
    .filter(([, value]) => value !== '')
    .map(([answerId, value]) => ({ answer_id: answerId, value }));
  return {
    answers: [
      { answer_id: 104, value: contact.phone.replace(/\D/g, '') },
      { answer_id: 165, value: contact.preferredEmail },
      { answer_id: 611, value: address },
    ],
    completed: true,
  } as OnboardingAnswersRequest;
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expect(screen.getByRole('heading', { level: 1, name: HEADINGS[stepOf(snapshot)] })).toBeInTheDocument();
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'onboarding_answers', body: undefined });
    expectProgress(stepOf(snapshot));
  },
  loadFailed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(ONBOARDING_MESSAGES.loadFailed);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(continueButton()).toBeDisabled();
    expect(reportedErrors(sent)).toEqual([FAILURE_REPORT]);
  },
  editing: (snapshot) => {
    const step = stepOf(snapshot);
    expect(screen.getByRole('heading', { level: 1, name: HEADINGS[step] })).toBeInTheDocument();
    expectProgress(step);
    expect(continueButton()).toBeEnabled();
    expect(continueButton()).toHaveTextContent(step === 'contactInfo' ? 'Finish' : 'Continue');
    expect(screen.queryByRole('button', { name: 'Back' }) !== null).toBe(step !== 'aboutUs');
    if (snapshot.context.error) {
      expect(screen.getByRole('alert')).toHaveTextContent(ONBOARDING_MESSAGES.saveFailed);
      expect(reportedErrors(sent).at(-1)).toEqual(FAILURE_REPORT);
    }
    if (step === 'aboutUs') {
      expect(screen.getByText('Your personal information stays confidential and is not disclosed to your employer.')).toBeInTheDocument();
    }
    if (step === 'aboutYou') {
      for (const [name, answerId] of [[/own a home/, 132], [/own or lease a car/, 134], [/parent/, 121], [/pet/, 122], [/partner/, 120]] as const) {
        const checkbox = screen.getByRole('checkbox', { name });
        if (snapshot.context.choices.includes(answerId)) expect(checkbox).toBeChecked();
        else expect(checkbox).not.toBeChecked();
      }
    }
    if (step === 'contactInfo') {
      const { contact, fieldErrors } = snapshot.context;
      expect(screen.getByRole('textbox', { name: /^Phone number/ })).toHaveValue(contact.phone);
      expect(screen.getByRole('textbox', { name: /^Preferred email/ })).toHaveValue(contact.preferredEmail);
      // SPEC §5: all optional until an address part is filled; then all but line 2 are required.
      const addressStarted = [contact.addressLine1, contact.city, contact.state, contact.postalCode, contact.country, contact.addressLine2]
        .some((value) => value !== '');
      for (const label of ['Street address', 'City', 'State', 'Postal code', 'Country']) {
        const field = screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
        if (addressStarted) expect(field).toBeRequired();
        else expect(field).toHaveAccessibleName(`${label} (optional)`);
      }
      expect(screen.getByRole('textbox', { name: /^Apartment, suite, etc\./ })).toHaveAccessibleName('Apartment, suite, etc. (optional)');
      for (const message of Object.values(fieldErrors)) expect(screen.getByText(message as string)).toBeInTheDocument();
    }
  },
  saving: (snapshot) => {
    expect(continueButton()).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toMatchObject({ method: 'POST', path: 'onboarding_answers' });
    const saved = sent.at(-1)?.body;
    if (stepOf(snapshot) === 'aboutYou') {
      expect(saved).toEqual({
        answers: [132, 134, 121, 122, 120].map((answerId) => ({
          answer_id: answerId,
          value: snapshot.context.choices.includes(answerId as 122),
        })),
      });
    } else {
      expect(saved).toEqual(expectedContactAnswers(snapshot.context.contact));
    }
  },
  left: (snapshot) => {
    const step = stepOf(snapshot);
    if (step === 'contactInfo') {
      // SPEC §2: the last step completes onboarding and opens the Dashboard, with the user reloaded.
      expect(screen.getByRole('heading', { level: 1, name: 'Dashboard page' })).toBeInTheDocument();
      expect(refreshUser).toHaveBeenCalledOnce();
    } else {
      const next = screen.getByRole('heading', { level: 1 });
      expect([HEADINGS.aboutUs, HEADINGS.aboutYou, HEADINGS.contactInfo]).toContain(next.textContent);
      expect(next).not.toHaveTextContent(HEADINGS[step]);
      expect(refreshUser).not.toHaveBeenCalled();
    }
  },
};

async function fill(label: RegExp, value: string) {
  const field = screen.getByRole('textbox', { name: label });
  await user.clear(field);
  if (value !== '') await user.type(field, value);
}

const FIELD_LABELS: Record<keyof Contact, RegExp> = {
  phone: /^Phone number/,
  preferredEmail: /^Preferred email/,
  addressLine1: /^Street address/,
  addressLine2: /^Apartment, suite/,
  city: /^City/,
  state: /^State/,
  postalCode: /^Postal code/,
  country: /^Country/,
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(onboardingMachine, pendingCalls),
  RETRY: async () => {
    await user.click(screen.getByRole('button', { name: 'Try again' }));
  },
  CONTINUE: async () => {
    await user.click(continueButton());
  },
  BACK: async () => {
    await user.click(screen.getByRole('button', { name: 'Back' }));
  },
  TOGGLE_CHOICE: async ({ event }) => {
    const names: Record<number, RegExp> = { 122: /I have a pet/, 134: /I own or lease a car/ };
    await user.click(screen.getByRole('checkbox', { name: names[event.answerId as number] }));
  },
  CHANGE_FIELD: async ({ event }) => {
    await fill(FIELD_LABELS[event.field as keyof Contact], event.value as string);
  },
};

const field = (name: keyof Contact, value: string, label: string): LabelledEvent => ({
  label,
  event: { type: 'CHANGE_FIELD', field: name, value },
});

/** The address filled in one part at a time, in the order of the form. */
const ADDRESS_STEPS: LabelledEvent[] = [
  field('addressLine1', '1 Main St', 'street address'),
  field('city', 'Springfield', 'city'),
  field('state', 'IL', 'state'),
  field('postalCode', '62701', 'postal code'),
  field('country', 'USA', 'country'),
];

const models = {
  aboutUs: flowModel(onboardingMachine, {
    input: { step: 'aboutUs' },
    events: [{ label: 'continue', event: { type: 'CONTINUE' } }],
  }),
  aboutYou: flowModel(onboardingMachine, {
    input: { step: 'aboutYou' },
    events: [
      doneEvent('loadAnswers', SAVED, 'saved answers loaded'),
      errorEvent('loadAnswers', networkFailure, 'loading fails'),
      { label: 'retry', event: { type: 'RETRY' } },
      { label: 'unselect pet', event: { type: 'TOGGLE_CHOICE', answerId: 122, selected: false } },
      { label: 'select car', event: { type: 'TOGGLE_CHOICE', answerId: 134, selected: true } },
      { label: 'continue', event: { type: 'CONTINUE' } },
      { label: 'back', event: { type: 'BACK' } },
      doneEvent('saveAnswers', undefined, 'saved'),
      errorEvent('saveAnswers', networkFailure, 'saving fails'),
    ],
    // The pet goes, then the car comes; a failed load or save is tried once.
    offer: (snapshot, { event }) => {
      const { choices } = snapshot.context;
      // Each toggle changes the choice it names (a click flips the checkbox).
      if (event.type === 'TOGGLE_CHOICE' && event.answerId === 122) return choices.includes(122);
      if (event.type === 'TOGGLE_CHOICE' && event.answerId === 134) return !choices.includes(122) && !choices.includes(134);
      if (event.type.startsWith('xstate.error')) return snapshot.context.error === null;
      return true;
    },
  }),
  contactInfo: flowModel(onboardingMachine, {
    input: { step: 'contactInfo' },
    events: [
      doneEvent('loadAnswers', SAVED, 'saved answers loaded'),
      field('phone', '', 'clear phone'),
      field('preferredEmail', 'nora@', 'wrong e-mail'),
      field('preferredEmail', 'nora@home.test', 'right e-mail'),
      ...ADDRESS_STEPS,
      { label: 'continue', event: { type: 'CONTINUE' } },
      doneEvent('saveAnswers', undefined, 'saved'),
      errorEvent('saveAnswers', networkFailure, 'saving fails'),
    ],
    offer: (snapshot, { event }) => {
      const { contact, fieldErrors, error } = snapshot.context;
      if (event.type === 'xstate.error.actor.saveAnswers') return error === null;
      if (event.type !== 'CHANGE_FIELD') return true;
      const name = event.field as keyof Contact;
      const value = event.value as string;
      if (contact[name] === value) return false;
      if (name === 'phone') return contact.preferredEmail === '' && contact.addressLine1 === '';
      if (name === 'preferredEmail') {
        // A wrong e-mail is typed, refused on Continue, then corrected; no address then.
        return value === 'nora@' ? contact.preferredEmail === '' && contact.addressLine1 === '' : Boolean(fieldErrors.preferredEmail);
      }
      // The street address starts it; the other parts follow once Continue has shown what is missing.
      const index = ADDRESS_STEPS.findIndex((candidate) => candidate.event.field === name);
      if (index === 0) return contact.preferredEmail === '' && contact.phone === '';
      const previous = ADDRESS_STEPS[index - 1]!.event.field as keyof Contact;
      return contact[previous] !== '' && Object.keys(fieldErrors).length > 0;
    },
  }),
};

beforeEach(() => {
  inspectedActors.clear();
  user = userEvent.setup();
  session = startSession();
  refreshUser.mockClear();
  ({ sent } = fakeNetwork([
    { method: 'GET', path: /^onboarding_answers$/, id: 'loadAnswers', answer: (answers: OnboardingAnswer[]) => ({ answers }) },
    { method: 'POST', path: /^onboarding_answers$/, id: 'saveAnswers', answer: () => ({ success: true }) },
    ERROR_REPORTS_ROUTE,
  ]));
});

afterEach(() => {
  appOfSession(session).stop();
  setRouter(null);
  pendingCalls.clear();
});

describe.each(Object.entries(models))('onboarding step %s', (step, { titled }) => {
  it.each(titled)('$title', async ({ path }) => {
    await waitFor(() => expect(session.getSnapshot().hasTag('signedIn')).toBe(true));
    renderStep(step as OnboardingStep);
    await runPath(path, stepActorSnapshot, states, events);
    // Every failed load or save is reported once, and nothing else is.
    const failures = path.steps.filter(({ event }) => event.type.startsWith('xstate.error')).length;
    await waitFor(() => expect(reportedErrors(sent)).toEqual(Array(failures).fill(FAILURE_REPORT)));
  });
});

describe('onboarding model coverage', () => {
  it('covers every state and event over the three steps', () => {
    const paths = Object.values(models).flatMap(({ paths: stepPaths }) => stepPaths);
    expectFullCoverage(onboardingMachine, paths, states, events);
  });

  it('walks the paths the issue names', () => {
    const titles = Object.values(models).flatMap(({ titled }) => titled.map(({ title }) => title));
    const scenarios: Record<string, RegExp> = {
      'address rule': /street address → continue → city/,
      'complete address saved': /country → continue → saved/,
      'nothing given at all is fine': /^start → saved answers loaded → clear phone → continue → saved$/,
      'wrong e-mail refused': /wrong e-mail → continue → right e-mail/,
      'a pet owner': /^start → saved answers loaded → continue → saved$/,
    };
    expectScenariosWalked(titles, scenarios);
  });

  it('shows the about-you choices as chips that say what they bring', async () => {
    await waitFor(() => expect(session.getSnapshot().hasTag('signedIn')).toBe(true));
    renderStep('aboutYou');
    await pendingCalls.settle({ type: 'xstate.done.actor.loadAnswers', output: [] });
    const group = screen.getByRole('group', { name: 'What applies to you' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(5);
    expect(within(group).getByText('Vets, sitters, walkers and grooming')).toBeInTheDocument();
  });
});
