import { render, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AvailabilityResponse, TeamMember } from '../../src/contract/assignment.ts';
import { AVAILABILITY_TEXT, consoleAvailabilityMachine } from '../../src/machines/consoleAvailability.machine.ts';
import { ConsoleAvailability, teammatesAvailable } from '../../src/views/console/ConsoleAvailability.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';

type Machine = typeof consoleAvailabilityMachine;

/** Issue 28: the console header's Available / Away switch, with who else on the team is available. */

const UNAVAILABLE = serverRefusal(503, 'Service Unavailable');
const member = (fields: Partial<TeamMember> & Pick<TeamMember, 'id' | 'full_name'>): TeamMember => ({
  role: 'concierge',
  available: false,
  open_requests: 0,
  open_request_cap: 5,
  ...fields,
});
const AWAY_ME = member({ id: 1, full_name: 'Casey Concierge', open_requests: 2 });
const PAT = member({ id: 2, full_name: 'Pat Helper', available: true });
const away: AvailabilityResponse = { me: AWAY_ME, team: [AWAY_ME, PAT] };
const AVAILABLE_ME = { ...AWAY_ME, available: true, open_requests: 4 };
const available: AvailabilityResponse = { me: AVAILABLE_ME, team: [AVAILABLE_ME, PAT] };

const { paths, titled } = flowModel(consoleAvailabilityMachine, {
  events: [
    doneEvent('loadAvailability', away, 'away on arrival'),
    errorEvent('loadAvailability', UNAVAILABLE, 'availability unavailable'),
    { label: 'try again', event: { type: 'RETRY' } },
    { label: 'switch to available', event: { type: 'SET_AVAILABLE', available: true } },
    { label: 'switch to away', event: { type: 'SET_AVAILABLE', available: false } },
    doneEvent('saveAvailability', available, 'now available'),
    errorEvent('saveAvailability', UNAVAILABLE, 'not saved'),
  ],
  offer: ({ context }, { event }) => event.type !== 'SET_AVAILABLE' || event.available !== context.me?.available,
});

let user: UserEvent;
let sent: SentCall[];

const availabilitySwitch = () => screen.getByRole('switch', { name: 'Available' });

const states: StateAssertions<Machine> = {
  loading: () => {
    expect(availabilitySwitch()).toBeDisabled();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'console/availability', body: undefined });
  },
  loadFailed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(AVAILABILITY_TEXT.loadFailed);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  },
  ready: ({ context }) => {
    const { me, team } = context;
    expect(availabilitySwitch()).toBeEnabled();
    expect(availabilitySwitch()).toHaveProperty('checked', me!.available);
    expect(screen.getByRole('status')).toHaveTextContent(`${me!.open_requests} of ${me!.open_request_cap} open · ${teammatesAvailable(team, me!.id)}`);
    expect(screen.getByRole('status')).toHaveTextContent('Also available: Pat Helper.');
    if (context.error) expect(screen.getByRole('alert')).toHaveTextContent(AVAILABILITY_TEXT.saveFailed);
    else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  saving: ({ context }) => {
    expect(availabilitySwitch()).toBeDisabled();
    expect(availabilitySwitch()).toHaveProperty('checked', context.shown);
    expect(sent.at(-1)).toEqual({ method: 'PUT', path: 'console/availability', body: { available: context.shown } });
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(consoleAvailabilityMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  // The keyboard, as a concierge without a mouse switches it.
  SET_AVAILABLE: async () => {
    availabilitySwitch().focus();
    await user.keyboard(' ');
  },
};

describe("the console's availability switch", () => {
  beforeEach(() => {
    user = userEvent.setup();
    const answer = (response: AvailabilityResponse) => response;
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^console\/availability$/, id: 'loadAvailability', answer },
      { method: 'PUT', path: /^console\/availability$/, id: 'saveAvailability', answer },
    ]));
    render(inApp(startTestApp(), <ConsoleAvailability />));
  });

  afterEach(() => pendingCalls.clear());

  it('words who else is available', () => {
    expect(teammatesAvailable([AWAY_ME], AWAY_ME.id)).toBe('Nobody else is available.');
    expect(teammatesAvailable([AVAILABLE_ME, PAT, { ...PAT, id: 3, full_name: 'Sam Third' }], AWAY_ME.id)).toBe('Also available: Pat Helper, Sam Third.');
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(consoleAvailabilityMachine), states, events);
  });

  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(consoleAvailabilityMachine, paths, states, events);
  });
});
