import { render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RATING_ERRORS, RATING_SCORE_LABELS, type RatingState } from '../../src/contract/ratings.ts';
import { RATING_TEXT, type RatingInput, ratingMachine } from '../../src/machines/rating.machine.ts';
import { RatingCard } from '../../src/views/rating/RatingCard.tsx';
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

type Machine = typeof ratingMachine;

/**
 * Issue 28: "How did we do?", walked in its three places: a completed request's page, a completion e-mail's signed
 * link (its score preselected) and the Dashboard's card (the latest request waiting for a rating).
 */

const REQUEST_ID = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
const completion = (changeableFor: number, rating: RatingState['rating']): RatingState => ({
  request_id: REQUEST_ID,
  request_name: 'Book a table',
  completed_at: new Date(Date.now() + changeableFor - 14 * DAY_MS).toISOString(),
  changeable_until: new Date(Date.now() + changeableFor).toISOString(),
  rating,
});
const UNRATED = completion(10 * DAY_MS, null);
const RATED = completion(10 * DAY_MS, { score: 5, comment: 'Lovely', updated_at: '2026-11-20T10:00:00.000Z' });
const CLOSED = completion(-DAY_MS, { score: 3, comment: null, updated_at: '2026-11-01T10:00:00.000Z' });
const NOT_COMPLETED: RatingState = { ...UNRATED, completed_at: null, changeable_until: null };
const SAVED = { ...UNRATED, rating: { score: 2, comment: 'Took a week', updated_at: '2026-11-27T10:00:00.000Z' } };
const UNAVAILABLE = serverRefusal(503, 'Service Unavailable');
const LINK_EXPIRED = serverRefusal(403, RATING_ERRORS.linkExpired);

const PLACES: Record<string, RatingInput> = {
  "on the request's page": { requestId: REQUEST_ID, token: null, preselected: null },
  "from the e-mail's link": { requestId: REQUEST_ID, token: 'signed-token', preselected: 4 },
  'on the Dashboard': { requestId: null, token: null, preselected: null },
};

function modelOf(input: RatingInput) {
  return flowModel(ratingMachine, {
    input,
    events: [
      doneEvent('loadRating', UNRATED, 'waiting for a rating'),
      doneEvent('loadRating', RATED, 'rated already'),
      doneEvent('loadRating', CLOSED, 'rated, window closed'),
      doneEvent('loadRating', input.requestId === null ? null : NOT_COMPLETED, 'nothing to rate'),
      errorEvent('loadRating', input.token ? LINK_EXPIRED : UNAVAILABLE, 'not loaded'),
      { label: 'try again', event: { type: 'RETRY' } },
      { label: 'pick 2', event: { type: 'PICK', score: 2 } },
      { label: 'comment', event: { type: 'EDIT_COMMENT', comment: 'Took a week' } },
      { label: 'send', event: { type: 'SUBMIT' } },
      doneEvent('saveRating', SAVED, 'saved'),
      errorEvent('saveRating', UNAVAILABLE, 'not saved'),
      { label: 'change', event: { type: 'CHANGE' } },
    ],
    offer: ({ context }, { event }) =>
      (event.type !== 'PICK' || context.score !== event.score) && (event.type !== 'EDIT_COMMENT' || context.comment === ''),
  });
}

const models = Object.fromEntries(Object.entries(PLACES).map(([place, input]) => [place, modelOf(input)]));

let user: UserEvent;
let sent: SentCall[];
let place: RatingInput;

const card = () => screen.getByRole('region', { name: RATING_TEXT.question });
const scores = () => within(card()).getByRole('radiogroup');
const scoreRadio = (score: number) => within(scores()).getByRole('radio', { name: `${score} – ${RATING_SCORE_LABELS[score]}` });
const sendButton = () => within(card()).getByRole('button', { name: /^(Send|Update) rating$/ });

function expectLoadCall() {
  const expected = place.requestId === null
    ? { method: 'GET', path: 'ratings/pending', body: undefined }
    : place.token
      ? { method: 'GET', path: `rating_links/${REQUEST_ID}`, body: undefined, query: { token: place.token } }
      : { method: 'GET', path: `requests/${REQUEST_ID}/rating`, body: undefined };
  expect(sent.at(-1)).toEqual(expected);
}

const states: StateAssertions<Machine> = {
  loading: () => {
    // On the Dashboard the card waits to know there is something to rate (a placeholder would appear and go again).
    if (place.requestId === null) expect(screen.queryByRole('region', { name: RATING_TEXT.question })).not.toBeInTheDocument();
    else expect(card()).toHaveAttribute('aria-busy', 'true');
    expectLoadCall();
  },
  failed: ({ context }) => {
    expect(within(card()).getByRole('alert')).toHaveTextContent(context.error!);
    expect(context.error).toBe(place.token ? RATING_ERRORS.linkExpired : RATING_TEXT.loadFailed);
  },
  nothingToRate: () => expect(screen.queryByRole('region', { name: RATING_TEXT.question })).not.toBeInTheDocument(),
  closed: ({ context }) => {
    expect(card()).toHaveTextContent(`You rated this ${context.state!.rating!.score} – ${RATING_SCORE_LABELS[context.state!.rating!.score]}.`);
    expect(card()).toHaveTextContent(RATING_TEXT.closed);
    expect(within(card()).queryByRole('button')).not.toBeInTheDocument();
  },
  asking: ({ context }) => {
    for (const score of [1, 2, 3, 4, 5]) expect(scoreRadio(score)).toHaveProperty('checked', score === context.score);
    expect(within(card()).getByRole('textbox', { name: /Comment/ })).toHaveValue(context.comment);
    expect(sendButton()).toHaveTextContent(context.state!.rating ? 'Update rating' : 'Send rating');
    if (context.score === null) expect(sendButton()).toBeDisabled();
    else expect(sendButton()).toBeEnabled();
    if (context.error) expect(within(card()).getByRole('alert')).toHaveTextContent(RATING_TEXT.saveFailed);
    else expect(within(card()).queryByRole('alert')).not.toBeInTheDocument();
    // The link's score is only chosen: until the employee sends it, nothing but reads went out.
    if (context.preselected !== null) expect(sent.every((call) => call.method === 'GET')).toBe(true);
    if (place.requestId === null) expect(card()).toHaveTextContent(`Your request “${context.state!.request_name}” is completed.`);
  },
  saving: ({ context }) => {
    expect(card()).toHaveAttribute('aria-busy', 'true');
    const body = { score: context.score, comment: context.comment === '' ? null : context.comment };
    expect(sent.at(-1)).toEqual(
      place.token
        ? { method: 'PUT', path: `rating_links/${REQUEST_ID}`, body: { token: place.token, ...body } }
        : { method: 'PUT', path: `requests/${REQUEST_ID}/rating`, body },
    );
  },
  rated: ({ context }) => {
    const { score, comment } = context.state!.rating!;
    expect(card()).toHaveTextContent(`You rated this ${score} – ${RATING_SCORE_LABELS[score]}.`);
    if (comment) expect(card()).toHaveTextContent(comment);
    expect(within(card()).getByRole('button', { name: 'Change rating' })).toBeEnabled();
  },
  'rated.shown': () => expect(within(card()).getByRole('status')).toHaveTextContent(''),
  'rated.thanked': () => {
    expect(within(card()).getByRole('status')).toHaveTextContent(RATING_TEXT.thanks);
    // Opened from a link (perhaps signed out), the card leads on to the request itself.
    if (place.token) expect(within(card()).getByRole('link', { name: 'See your request' })).toHaveAttribute('href', `/requests/${REQUEST_ID}`);
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(ratingMachine, pendingCalls),
  RETRY: () => user.click(within(card()).getByRole('button', { name: 'Try again' })),
  PICK: ({ event }) => user.click(scoreRadio(event.score as number)),
  EDIT_COMMENT: ({ event }) => user.type(within(card()).getByRole('textbox', { name: /Comment/ }), event.comment as string),
  SUBMIT: () => user.click(sendButton()),
  CHANGE: () => user.click(within(card()).getByRole('button', { name: 'Change rating' })),
};

describe.each(Object.entries(PLACES))('"How did we do?" %s', (placeName, input) => {
  // The card loads its form lazily (DESIGN §9): loaded once here, so that no state's check waits on the module's
  // first transform.
  beforeAll(() => import('../../src/views/rating/RatingForm.tsx'));
  beforeEach(() => {
    user = userEvent.setup();
    place = input;
    const state = (output: RatingState) => ({ rating_state: output });
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^ratings\/pending$/, id: 'loadRating', answer: (output: RatingState | null) => ({ requests: output ? [output] : [] }) },
      { method: 'GET', path: /^requests\/\d+\/rating$/, id: 'loadRating', answer: state },
      { method: 'GET', path: /^rating_links\/\d+$/, id: 'loadRating', answer: state },
      { method: 'PUT', path: /^requests\/\d+\/rating$/, id: 'saveRating', answer: state },
      { method: 'PUT', path: /^rating_links\/\d+$/, id: 'saveRating', answer: state },
    ]));
    render(inApp(startTestApp(), <MemoryRouter><RatingCard {...input} /></MemoryRouter>));
  });

  afterEach(() => pendingCalls.clear());

  it.each(models[placeName].titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(ratingMachine), states, events);
  });
});

describe('"How did we do?" in all its places', () => {
  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(ratingMachine, Object.values(models).flatMap((model) => model.paths), states, events);
  });

});
