import { useSelector } from '@xstate/react';
import { type RefObject, useEffect, useRef } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AnsweredQuestion, surveyMachine } from '../../machines/survey.machine.ts';
import { Button, LinkButton } from '../../widgets/Button.tsx';
import { Confetti } from '../../widgets/Confetti.tsx';
import { ConfirmDialog } from '../../widgets/Dialog.tsx';
import { SuccessIcon } from '../../widgets/icons.tsx';
import { Message, RetryMessage } from '../../widgets/Message.tsx';
import { Spinner } from '../../widgets/Spinner.tsx';
import { AnswerForm } from './AnswerForm.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';

export type SurveyActor = ActorRefFrom<typeof surveyMachine>;
type SurveySnapshot = SnapshotFrom<typeof surveyMachine>;

/** SPEC §4 strings. */
export const SURVEY_TEXT = {
  leaveQuestion: "Wait! You're almost there. Are you sure you want to stop now?",
  stay: 'No, stay',
  leave: 'Yes, cancel',
  discardQuestion: "Are you sure you want to cancel your edit and discard any changes you've made?",
  keepEditing: 'No, keep editing',
  discard: 'Yes, discard changes',
  finishEditing: 'Finish editing above',
  submitting: 'Submitting',
  submit: 'Submit',
  added: 'has been added to your requests',
  skipped: 'Skipped',
} as const;

const conversationIs = (snapshot: SurveySnapshot, state: 'beginning' | 'beginFailed' | 'nextFailed' | 'asking' | 'answering' | 'review' | 'submitting' | 'confirmation') =>
  snapshot.matches({ active: { conversation: state } });

type Stage = 'conversation' | 'summary' | 'confirmation';

function stageOf(snapshot: SurveySnapshot): Stage {
  if (conversationIs(snapshot, 'confirmation')) return 'confirmation';
  if (conversationIs(snapshot, 'review') || conversationIs(snapshot, 'submitting')) return 'summary';
  return 'conversation';
}

/** SPEC §4 request creation flow: the questions one at a time, the summary review, the confirmation. */
export function SurveyConversation({ actor }: { actor: SurveyActor }) {
  const stage = useSelector(actor, stageOf);
  const isLeaving = useSelector(actor, (snapshot) => snapshot.matches({ active: { leaving: 'confirming' } }));
  const isDiscarding = useSelector(actor, (snapshot) => snapshot.matches({ active: { edit: 'confirmingDiscard' } }));
  return (
    <div className="lc-survey">
      {stage === 'conversation' && <Conversation actor={actor} />}
      {stage === 'summary' && <Summary actor={actor} />}
      {stage === 'confirmation' && <Confirmation actor={actor} />}
      {isDiscarding && (
        <ConfirmDialog isOpen title={SURVEY_TEXT.discardQuestion} cancelLabel={SURVEY_TEXT.keepEditing}
          onCancel={() => actor.send({ type: 'KEEP_EDITING' })} confirmLabel={SURVEY_TEXT.discard}
          onConfirm={() => actor.send({ type: 'DISCARD_EDIT' })} />
      )}
      {isLeaving && (
        <ConfirmDialog isOpen title={SURVEY_TEXT.leaveQuestion} cancelLabel={SURVEY_TEXT.stay}
          onCancel={() => actor.send({ type: 'STAY' })} confirmLabel={SURVEY_TEXT.leave}
          onConfirm={() => actor.send({ type: 'CONFIRM_CANCEL' })} />
      )}
    </div>
  );
}

function Conversation({ actor }: { actor: SurveyActor }) {
  const answered = useSelector(actor, (snapshot) => snapshot.context.answered);
  const hasCurrent = useSelector(actor, (snapshot) => snapshot.context.current !== null);
  const isStarting = useSelector(actor, (snapshot) => conversationIs(snapshot, 'beginning'));
  const isTyping = useSelector(actor, (snapshot) => snapshot.hasTag('typing'));
  const failure = useSelector(actor, (snapshot) =>
    conversationIs(snapshot, 'beginFailed') || conversationIs(snapshot, 'nextFailed') ? snapshot.context.error : null,
  );
  return (
    <div className="lc-conversation">
      {answered.length > 0 && (
        <ol className="lc-conversation__turns" aria-label="Your answers so far">
          {answered.map((entry) => (
            <li key={entry.item.id}>
              <AnswerRow actor={actor} entry={entry} />
            </li>
          ))}
        </ol>
      )}
      {hasCurrent && <CurrentQuestion actor={actor} />}
      {isStarting && <Spinner size={32} className="lc-conversation__starting" />}
      {isTyping && <TypingIndicator />}
      {failure && (
        <RetryMessage onRetry={() => actor.send({ type: 'RETRY' })}>{failure}</RetryMessage>
      )}
    </div>
  );
}

/** The question being asked (SPEC §4: answered, or skipped when optional). */
function CurrentQuestion({ actor }: { actor: SurveyActor }) {
  const item = useSelector(actor, (snapshot) => snapshot.context.current);
  const draft = useSelector(actor, (snapshot) => snapshot.context.draft);
  const fieldError = useSelector(actor, (snapshot) => snapshot.context.fieldError);
  const failure = useSelector(actor, (snapshot) => (conversationIs(snapshot, 'asking') ? snapshot.context.error : null));
  const isAnswering = useSelector(actor, (snapshot) => conversationIs(snapshot, 'answering'));
  const canAnswer = useSelector(actor, (snapshot) => snapshot.can({ type: 'ANSWER' }));
  const upload = useSelector(actor, (snapshot) => snapshot.children.upload);
  const turn = useRef<HTMLDivElement>(null);
  // Each new question comes into view (a text input also takes the focus; a choice or an upload does not).
  useEffect(() => {
    // Block body: scrollIntoView answers a promise in newer browsers, which must not become the effect's cleanup.
    void turn.current?.scrollIntoView?.({ block: 'nearest' });
  }, [item?.id]);
  if (!item) return null;
  return (
    <div className="lc-turn lc-turn--current" ref={turn}>
      {item.position !== undefined && item.question_count !== undefined && (
        <p className="lc-turn__progress">
          Question {item.position} of {item.question_count}
        </p>
      )}
      <AnswerForm
        // A new question gets a fresh form.
        key={item.id}
        item={item}
        draft={draft}
        onChange={(value) => actor.send({ type: 'CHANGE', value })}
        upload={upload}
        errorMessage={fieldError ?? undefined}
        isDisabled={isAnswering}
        submitLabel="Continue"
        canSubmit={canAnswer}
        onSubmit={() => actor.send({ type: 'ANSWER' })}
        isSubmitting={isAnswering}
        onSkip={item.optional ? () => actor.send({ type: 'SKIP' }) : undefined}
        failure={failure}
      />
    </div>
  );
}

/** An answered (or skipped) question, in the conversation and on the summary; Edit turns it into a form. */
function AnswerRow({ actor, entry }: { actor: SurveyActor; entry: AnsweredQuestion }) {
  const { item } = entry;
  const edit = useSelector(actor, (snapshot) => (snapshot.context.edit?.questionId === item.id ? snapshot.context.edit : null));
  const canEdit = useSelector(actor, (snapshot) => snapshot.can({ type: 'EDIT', questionId: item.id }));
  const canSave = useSelector(actor, (snapshot) => snapshot.can({ type: 'SAVE_EDIT' }));
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches({ active: { edit: 'saving' } }));
  const upload = useSelector(actor, (snapshot) =>
    snapshot.context.edit?.questionId === item.id ? snapshot.children.editUpload : undefined,
  );
  const row = useRef<HTMLDivElement>(null);
  useFocusAfterEdit(edit !== null, row);

  if (edit) {
    return (
      <div className="lc-turn lc-turn--editing">
        <AnswerForm
          item={item}
          draft={edit.draft}
          keptFileName={edit.draft.value === edit.original.value ? edit.original.fileName : undefined}
          onChange={(value) => actor.send({ type: 'CHANGE_EDIT', value })}
          upload={upload}
          errorMessage={edit.fieldError ?? undefined}
          isDisabled={isSaving}
          submitLabel="Save"
          canSubmit={canSave}
          onSubmit={() => actor.send({ type: 'SAVE_EDIT' })}
          isSubmitting={isSaving}
          onCancel={() => actor.send({ type: 'CANCEL_EDIT' })}
          failure={edit.error}
        />
      </div>
    );
  }
  return (
    <div className="lc-turn" ref={row}>
      <p className="lc-turn__question">{item.question.label}</p>
      <div className={entry.skipped ? 'lc-turn__answer lc-turn__answer--skipped' : 'lc-turn__answer'}>
        <span className="lc-turn__answer-text">{entry.skipped ? SURVEY_TEXT.skipped : entry.display}</span>
        <Button variant="tertiary" className="lc-turn__edit" aria-label={`Edit your answer to ${item.question.label}`}
          isDisabled={!canEdit} onPress={() => actor.send({ type: 'EDIT', questionId: item.id })}>
          Edit
        </Button>
      </div>
    </div>
  );
}

/** When an edit ends (saved, cancelled or discarded) its form goes: the focus returns to the answer's Edit button. */
function useFocusAfterEdit(isEditing: boolean, row: RefObject<HTMLDivElement | null>) {
  const wasEditing = useRef(isEditing);
  useEffect(() => {
    if (wasEditing.current && !isEditing) row.current?.querySelector<HTMLButtonElement>('.lc-turn__edit')?.focus();
    wasEditing.current = isEditing;
  }, [isEditing, row]);
}

/** A heading that takes the focus when it appears, so that the change of step is read out and in view. */
function useFocusOnMount() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return heading;
}

/** SPEC §4: every answer, editable; Submit waits for edits to finish. */
function Summary({ actor }: { actor: SurveyActor }) {
  const answered = useSelector(actor, (snapshot) => snapshot.context.answered);
  const failure = useSelector(actor, (snapshot) => (conversationIs(snapshot, 'review') ? snapshot.context.error : null));
  const isEditing = useSelector(actor, (snapshot) => snapshot.context.edit !== null);
  const isSubmitting = useSelector(actor, (snapshot) => conversationIs(snapshot, 'submitting'));
  const canSubmit = useSelector(actor, (snapshot) => snapshot.can({ type: 'SUBMIT' }));
  const submitLabel = isEditing ? SURVEY_TEXT.finishEditing : isSubmitting ? SURVEY_TEXT.submitting : SURVEY_TEXT.submit;
  const heading = useFocusOnMount();
  return (
    <section className="lc-summary" aria-labelledby="survey-summary-heading">
      <h3 id="survey-summary-heading" ref={heading} tabIndex={-1}>Review your request</h3>
      <p className="lc-summary__intro">Check your answers before you submit. You can still change any of them.</p>
      <ol className="lc-summary__list">
        {answered.map((entry) => (
          <li key={entry.item.id}>
            <AnswerRow actor={actor} entry={entry} />
          </li>
        ))}
      </ol>
      <div className="lc-summary__actions">
        {failure && <Message severity="error">{failure}</Message>}
        <Button className="lc-summary__submit" isDisabled={!canSubmit && !isSubmitting} isLoading={isSubmitting}
          onPress={() => actor.send({ type: 'SUBMIT' })}>
          {submitLabel}
        </Button>
      </div>
    </section>
  );
}

/**
 * SPEC §4: '<name> has been added to your requests', links to Dashboard and Requests; confetti the first time. Beside
 * them, the new request itself (issue 32).
 */
function Confirmation({ actor }: { actor: SurveyActor }) {
  const name = useSelector(actor, (snapshot) => snapshot.context.request?.name ?? snapshot.context.survey.name);
  const requestId = useSelector(actor, (snapshot) => snapshot.context.request?.id ?? null);
  const isFirstRequest = useSelector(actor, (snapshot) => snapshot.context.firstRequest);
  const close = () => actor.send({ type: 'CLOSE' });
  const heading = useFocusOnMount();
  return (
    <div className="lc-confirmation">
      <SuccessIcon size={48} className="lc-confirmation__icon" />
      <h3 className="lc-confirmation__title" ref={heading} tabIndex={-1}>
        {name} {SURVEY_TEXT.added}
      </h3>
      <p>A concierge is on it and will be in touch in the request's message thread.</p>
      <div className="lc-confirmation__links">
        <LinkButton href="/dashboard" onPress={close}>
          Dashboard
        </LinkButton>
        <LinkButton href="/requests" variant="secondary" onPress={close}>
          Requests
        </LinkButton>
        {requestId !== null && (
          <LinkButton href={`/requests/${requestId}`} variant="secondary" onPress={close}>
            Open request
          </LinkButton>
        )}
      </div>
      {isFirstRequest && <Confetti />}
    </div>
  );
}
