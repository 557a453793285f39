import { createContext, useContext } from 'react';
import { type ActorRefFrom, createActor } from 'xstate';
import { inspect } from '../app/inspector.ts';
import { sessionActor } from '../app/session.ts';
import type { AnalyticsTarget } from '../contract/analytics.ts';
import { type CategoryDrawerMode, requestCreationMachine } from '../machines/requestCreation.machine.ts';
import type { SurveyTemplate } from '../machines/survey.machine.ts';

export type RequestCreationActor = ActorRefFrom<typeof requestCreationMachine>;

/**
 * The app-wide request creation drawer (SPEC §2, §4), created once. AppLayout mounts its view; any screen opens it
 * through the functions below.
 */
export const requestCreationActor: RequestCreationActor = createActor(requestCreationMachine, {
  input: { session: sessionActor },
  inspect,
});
requestCreationActor.start();

/**
 * Begins the survey of a request template and opens the drawer on the conversation, e.g.
 * `startRequestSurvey({ id: BENEFITS_HELP_SURVEY_ID, name: 'Help me with my benefits' })`.
 */
export function startRequestSurvey(survey: SurveyTemplate, actor: RequestCreationActor = requestCreationActor): void {
  actor.send({ type: 'START_SURVEY', survey: { id: survey.id, name: survey.name } });
}

/**
 * Opens the category drawer: 'explore' (Request categories) or 'custom' (Custom request). `trackedAs` names the
 * pressed control in analytics (SPEC §3 targets such as 'explore_categories').
 */
export function openCategoryExplorer(
  mode: CategoryDrawerMode,
  trackedAs?: AnalyticsTarget,
  actor: RequestCreationActor = requestCreationActor,
): void {
  actor.send({ type: 'OPEN_CATEGORIES', mode, trackedAs });
}

/** Calls `listener` each time a request is created through the drawer; returns the unsubscribe. */
export function onRequestCreated(listener: () => void, actor: RequestCreationActor = requestCreationActor): () => void {
  const subscription = actor.on('requestCreated', listener);
  return () => subscription.unsubscribe();
}

/** The drawer's actor for the views: the app-wide one, or a test's own. */
export const RequestCreationActorContext = createContext<RequestCreationActor>(requestCreationActor);

export function useRequestCreationActor(): RequestCreationActor {
  return useContext(RequestCreationActorContext);
}
