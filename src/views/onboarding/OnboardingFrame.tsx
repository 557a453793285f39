import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Logo } from '../../widgets/Logo.tsx';
import { useFlow } from '../../machines/appSystem.tsx';
import { ONBOARDING_STEPS, type OnboardingStep, onboardingMachine } from '../../machines/onboarding.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message, RetryMessage } from '../../widgets/Message.tsx';
import { ProgressBar } from '../../widgets/ProgressBar.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import './onboarding.css';

export type OnboardingActor = ActorRefFrom<typeof onboardingMachine>;

/** The chart of one onboarding step. */
export function useOnboardingActor(step: OnboardingStep): OnboardingActor {
  return useFlow(onboardingMachine, { id: 'onboarding', input: { step } });
}

export interface OnboardingFrameProps {
  actor: OnboardingActor;
  title: string;
  intro: ReactNode;
  children?: ReactNode;
}

/**
 * The onboarding screens' own frame (outside the app layout): the logo, the 3-step progress bar, the step's
 * content, and Back / Continue.
 */
export function OnboardingFrame({ actor, title, intro, children }: OnboardingFrameProps) {
  const step = useSelector(actor, (snapshot) => snapshot.context.step);
  const isLoading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const loadFailure = useSelector(actor, (snapshot) => (snapshot.matches('loadFailed') ? snapshot.context.error : null));
  const saveFailure = useSelector(actor, (snapshot) => (snapshot.matches('editing') ? snapshot.context.error : null));
  const isSaving = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const canGoBack = useSelector(actor, (snapshot) => snapshot.can({ type: 'BACK' }));
  const number = ONBOARDING_STEPS.indexOf(step) + 1;

  return (
    <div className="lc-onboarding">
      <header className="lc-onboarding__header">
        <Logo to="/welcome/about-us" />
        <ProgressBar label="Getting started" value={Math.round((number / ONBOARDING_STEPS.length) * 100)}
          valueLabel={`Step ${number} of ${ONBOARDING_STEPS.length}`} className="lc-onboarding__progress" />
      </header>
      <main className="lc-onboarding__main">
        <form className="lc-onboarding__form" noValidate
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'CONTINUE' });
          }}>
          <h1>{title}</h1>
          <div className="lc-onboarding__intro">{intro}</div>
          {isLoading && <Skeleton lines={4} />}
          {loadFailure && (
            <RetryMessage onRetry={() => actor.send({ type: 'RETRY' })}>{loadFailure}</RetryMessage>
          )}
          {!isLoading && !loadFailure && children}
          {saveFailure && <Message severity="error">{saveFailure}</Message>}
          <div className="lc-onboarding__actions">
            {canGoBack && (
              <Button variant="secondary" onPress={() => actor.send({ type: 'BACK' })} isDisabled={isSaving}>
                Back
              </Button>
            )}
            <Button type="submit" isLoading={isSaving} isDisabled={isLoading || Boolean(loadFailure)}>
              {number === ONBOARDING_STEPS.length ? 'Finish' : 'Continue'}
            </Button>
          </div>
        </form>
      </main>
    </div>
  );
}
