import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/account.ts';
import { PROFILE_ERRORS } from '../../src/contract/profile.ts';
import { ONBOARDING_ANSWER_IDS as IDS, type OnboardingAnswer } from '../../src/contract/surveys.ts';
import { type Profile, PROFILE_TEXT, accountProfileMachine, lastNameOf } from '../../src/machines/accountProfile.machine.ts';
import { SAVE_FAILED } from '../../src/machines/adminForms.ts';
import { ProfileSection } from '../../src/views/account/ProfileSection.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
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
import { type SentCall, fakeNetwork } from './network.support.ts';

const EMAIL = 'ada@example.com';
const INPUT = { user: { full_name: 'Ada King Lovelace', first_name: 'Ada' } };
const SAVED_ANSWERS: OnboardingAnswer[] = [
  { answer_id: IDS.phone, value: '2125550147' },
  { answer_id: IDS.pet, value: true },
];
const RENAMED: User = {
  external_id: 'u-1',
  full_name: 'Augusta King Lovelace',
  first_name: 'Augusta',
  initials: 'AL',
  email: EMAIL,
  request_count: 0,
  companies: [],
  role: 'employee',
  internal_user: false,
  onboarding_required: false,
  mfa_enrolled: false,
  mfa_phone_last_digits: null,
  email_confirmation_pending: false,
};
const NAME_REFUSED = serverRefusal(422, `user.name: ${PROFILE_ERRORS.nameTooLong}`, { 'user.name': PROFILE_ERRORS.nameTooLong });

const { paths, titled } = flowModel(accountProfileMachine, {
  input: INPUT,
  events: [
    doneEvent('loadAnswers', SAVED_ANSWERS, 'answers loaded'),
    errorEvent('loadAnswers', networkError(), 'load failed'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'edit', event: { type: 'EDIT' } },
    { label: 'rename', event: { type: 'CHANGE_NAME', field: 'firstName', value: 'Augusta' } },
    { label: 'blank the first name', event: { type: 'CHANGE_NAME', field: 'firstName', value: '' } },
    { label: 'start an address', event: { type: 'CHANGE_FIELD', field: 'city', value: 'Portland' } },
    { label: 'no pet', event: { type: 'TOGGLE_CHOICE', answerId: IDS.pet, selected: false } },
    { label: 'save', event: { type: 'SAVE' } },
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'renamed elsewhere', event: { type: 'USER_CHANGED', user: { full_name: 'Ada Byron', first_name: 'Ada' } } },
    doneEvent('saveProfile', RENAMED, 'saved'),
    errorEvent('saveProfile', NAME_REFUSED, 'name refused'),
    errorEvent('saveProfile', networkError(), 'no connection'),
  ],
  // One change per path, from the saved profile (the model stays finite); the walks combine them.
  offer: (snapshot, { event }) => {
    const { draft, saved } = snapshot.context;
    if (event.type === 'USER_CHANGED') return saved.lastName === 'King Lovelace';
    if (event.type === 'TOGGLE_CHOICE' && !draft.choices.includes(IDS.pet)) return false;
    if (['CHANGE_NAME', 'CHANGE_FIELD', 'TOGGLE_CHOICE'].includes(event.type)) return JSON.stringify(draft) === JSON.stringify(saved);
    return true;
  },
  walks: [
    ['answers loaded', 'edit', 'rename', 'no pet', 'save', 'saved', 'edit', 'cancel'],
    ['answers loaded', 'edit', 'rename', 'save', 'name refused'],
    ['answers loaded', 'edit', 'rename', 'save', 'no connection', 'save', 'saved'],
    ['answers loaded', 'edit', 'start an address', 'save'],
    ['answers loaded', 'edit', 'blank the first name', 'save'],
    ['load failed', 'retry', 'answers loaded'],
  ],
});

let user: UserEvent;
let rerender: (ui: ReactNode) => void;
let app: ReturnType<typeof startTestApp>;
let sent: SentCall[];
const section = () => screen.getByRole('region', { name: 'Profile' });
const form = () => screen.getByRole('form', { name: 'Edit your profile' });
const textField = (label: string) => within(form()).getByLabelText(new RegExp(`^${label}`), { selector: 'input' });

/** The profile's facts as the section lists them. */
function expectFacts(profile: Profile) {
  const facts = section().querySelector('dl') as HTMLElement;
  expect(facts).toHaveTextContent(`Name${profile.firstName} ${profile.lastName}`);
  expect(facts).toHaveTextContent(`E-mail${EMAIL}`);
  expect(facts).toHaveTextContent(`Phone${profile.contact.phone || 'Not given'}`);
  expect(facts).toHaveTextContent(`About you${profile.choices.length > 0 ? 'I have a pet' : 'Not given'}`);
}

const states: StateAssertions<typeof accountProfileMachine> = {
  loading: () => {
    expect(section()).toHaveAttribute('aria-busy', 'true');
    expect(within(section()).getByText('Loading')).toBeInTheDocument();
  },
  loadFailed: () => {
    expect(within(section()).getByText(PROFILE_TEXT.loadFailed)).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  viewing: ({ context }) => {
    expectFacts(context.saved);
    expect(screen.queryByRole('form', { name: 'Edit your profile' })).not.toBeInTheDocument();
    const notice = within(section()).queryByText(PROFILE_TEXT.saved);
    if (context.savedNotice) expect(notice).toBeInTheDocument();
    else expect(notice).not.toBeInTheDocument();
  },
  editing: ({ context }) => {
    const { draft, fieldErrors, formError } = context;
    expect(textField('First name')).toHaveValue(draft.firstName);
    expect(textField('Last name')).toHaveValue(draft.lastName);
    expect(textField('City')).toHaveValue(draft.contact.city);
    expect(within(form()).getByRole('checkbox', { name: /I have a pet/ })).toHaveProperty('checked', draft.choices.includes(IDS.pet));
    // Each problem beside its field, in words; a failure without an answer for the whole form.
    for (const message of Object.values(fieldErrors)) expect(within(form()).getByText(message)).toBeInTheDocument();
    if (formError) expect(within(form()).getByText(SAVE_FAILED)).toBeInTheDocument();
    expect(within(form()).getByRole('button', { name: 'Save' })).not.toHaveAttribute('aria-busy');
  },
  saving: ({ context }) => {
    expect(within(form()).getByRole('button', { name: /Save/ })).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toEqual({
      method: 'PATCH',
      path: 'users/current',
      body: { user: { name: context.draft.firstName, last_name: context.draft.lastName } },
    });
  },
};

const events: EventExecutors<typeof accountProfileMachine> = {
  ...settlementExecutors(accountProfileMachine, pendingCalls),
  RETRY: async () => user.click(screen.getByRole('button', { name: 'Try again' })),
  EDIT: async () => {
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    // The form's chunk loads when it is first asked for.
    await screen.findByRole('form', { name: 'Edit your profile' });
  },
  CHANGE_NAME: ({ event }) => {
    fireEvent.change(textField(event.field === 'firstName' ? 'First name' : 'Last name'), { target: { value: event.value } });
  },
  CHANGE_FIELD: ({ event }) => {
    fireEvent.change(textField('City'), { target: { value: event.value } });
  },
  TOGGLE_CHOICE: async () => user.click(within(form()).getByRole('checkbox', { name: /I have a pet/ })),
  SAVE: async () => user.click(within(form()).getByRole('button', { name: 'Save' })),
  CANCEL: async () => user.click(within(form()).getByRole('button', { name: 'Cancel' })),
  // The session's user changes under the screen (a refresh): the section is given the new one.
  USER_CHANGED: ({ event }) => {
    rerender(inApp(app, <ProfileSection user={event.user as typeof INPUT.user} email={EMAIL} />));
  },
};

describe('profile against Account Settings', () => {
  beforeEach(() => {
    user = userEvent.setup();
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^onboarding_answers$/, id: 'loadAnswers', answer: (answers: OnboardingAnswer[]) => ({ answers }) },
      { method: 'PATCH', path: /^users\/current$/, id: 'saveProfile', answer: (renamed: User) => ({ user: renamed }) },
      { method: 'POST', path: /^onboarding_answers$/, answer: () => ({ success: true }) },
    ]));
    app = startTestApp();
    ({ rerender } = render(inApp(app, <ProfileSection user={INPUT.user} email={EMAIL} />)));
  });
  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(accountProfileMachine), states, events);
  });

  it('saves the interests and the contact details with the name', async () => {
    const snapshot = () => inspectedActors.snapshotOf(accountProfileMachine);
    await pendingCalls.settle({ type: 'xstate.done.actor.loadAnswers', output: SAVED_ANSWERS });
    await user.click(screen.getByRole('button', { name: 'Edit profile' }));
    await user.click(within(form()).getByRole('checkbox', { name: /I own a home/ }));
    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    await pendingCalls.settle({ type: 'xstate.done.actor.saveProfile', output: RENAMED });
    await screen.findByText(PROFILE_TEXT.saved);
    const saved = sent.find((call) => call.method === 'POST' && call.path === 'onboarding_answers');
    expect(saved?.body).toEqual({
      answers: expect.arrayContaining([
        { answer_id: IDS.ownHome, value: true },
        { answer_id: IDS.pet, value: true },
        { answer_id: IDS.partner, value: false },
        { answer_id: IDS.phone, value: '2125550147' },
      ]),
      completed: true,
    });
    expect(snapshot().matches('viewing')).toBe(true);
  });
});

describe('profile model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(accountProfileMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(titled.map(({ title }) => title), {
      'saved, then edited again': /save → saved → edit/,
      'the server names the field': /name refused/,
      'no connection, then saved': /no connection → save → saved/,
      'a started address must be complete (SPEC §5)': /start an address → save$/,
      'a blank name is not sent': /blank the first name → save$/,
      'load failed, retried': /load failed → retry → answers loaded/,
      'the name follows the session': /renamed elsewhere/,
    });
  });

  it('reads the last name out of the full name', () => {
    expect(lastNameOf({ full_name: 'Ada King Lovelace', first_name: 'Ada' })).toBe('King Lovelace');
    expect(lastNameOf({ full_name: 'Sam', first_name: 'Sam' })).toBe('');
  });
});
