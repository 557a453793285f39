import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { QUESTION_TYPES, type QuestionPrefill, type QuestionType } from '../../contract/surveys.ts';
import type { FieldErrors } from '../../machines/adminForms.ts';
import {
  PREFILL_OF_TYPE,
  type QuestionChanges,
  type QuestionDraft,
  SURVEYS_PATH,
  type adminTemplateQuestionsMachine,
} from '../../machines/adminTemplateQuestions.machine.ts';
import { Button, LinkButton } from '../../widgets/Button.tsx';
import { Checkbox } from '../../widgets/Checkbox.tsx';
import { Form } from '../../widgets/Form.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { SurveyConversation } from '../requestCreation/SurveyConversation.tsx';
import { AdminListFrame } from './AdminParts.tsx';
import { TemplateDetailsFields } from './AdminSurveysView.tsx';
import '../requestCreation/requestCreation.css';

export type AdminTemplateQuestionsActor = ActorRefFrom<typeof adminTemplateQuestionsMachine>;

/** SPEC §3 question types, as the admin reads them. */
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  TextInput: 'Short text',
  MultilineTextInput: 'Long text',
  PhoneNumberInput: 'Phone number',
  ManagedEmailInput: 'E-mail address',
  SingleSelectInput: 'Single choice',
  SingleUploadInput: 'File upload',
};
const TYPE_OPTIONS = QUESTION_TYPES.map((type) => ({ id: type, label: QUESTION_TYPE_LABELS[type] }));

const PREFILL_LABELS: Record<QuestionPrefill, string> = {
  full_name: "Pre-fill with the employee's name",
  phone: "Pre-fill with the employee's phone number",
  email: "Pre-fill with the employee's e-mail address",
  address: "Pre-fill with the employee's address",
};

/**
 * The question editor of a request template (or of a new one, with its details): every question's text, type,
 * optional flag, pre-fill and options, in order; saved as a whole, and previewed as the employee conversation.
 */
export function AdminTemplateQuestionsView({ editor: actor }: { editor: AdminTemplateQuestionsActor }) {
  const template = useSelector(actor, (snapshot) => snapshot.context.template);
  const isNew = useSelector(actor, (snapshot) => snapshot.context.templateId === null);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const isLoaded = useSelector(actor, (snapshot) => !snapshot.matches('loading') && !snapshot.matches('failed'));
  const heading = isNew ? 'New request template' : template ? template.name : 'Request template';

  return (
    <AdminListFrame heading={heading} isBusy={isBusy} loadError={loadError} onRetry={() => actor.send({ type: 'RETRY' })}
      notice={notice} isLoaded={isLoaded}
      action={<LinkButton variant="secondary" href={SURVEYS_PATH}>Back to surveys</LinkButton>}>
      <QuestionsForm actor={actor} />
      <TemplatePreview actor={actor} />
    </AdminListFrame>
  );
}

function QuestionsForm({ actor }: { actor: AdminTemplateQuestionsActor }) {
  const template = useSelector(actor, (snapshot) => snapshot.context.template);
  const isNew = useSelector(actor, (snapshot) => snapshot.context.templateId === null);
  const details = useSelector(actor, (snapshot) => snapshot.context.details);
  const categories = useSelector(actor, (snapshot) => snapshot.context.categories);
  const questions = useSelector(actor, (snapshot) => snapshot.context.questions);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const announcement = useSelector(actor, (snapshot) => snapshot.context.announcement);
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const isEditing = useSelector(actor, (snapshot) => snapshot.matches('editing'));
  const categoryName = categories.find((category) => category.id === template?.category_id)?.name ?? 'No category';
  const list = useFocusAfterListChange(questions.length);

  return (
    <Form className="lc-admin-form lc-template-editor" validationBehavior="aria" onSubmit={(event) => {
      event.preventDefault();
      actor.send({ type: 'SAVE' });
    }}>
      {isNew ? (
        <fieldset className="lc-template-editor__details">
          <legend className="lc-template-editor__legend">Details</legend>
          <TemplateDetailsFields draft={details} categories={categories} fieldErrors={fieldErrors} isNew
            onChange={(changes) => actor.send({ type: 'CHANGE_DETAILS', changes })} />
        </fieldset>
      ) : (
        template && (
          <div className="lc-template-editor__summary">
            <p>
              {template.slug} · {categoryName} · {template.for_alpha ? 'for alpha' : 'not for alpha'} · <strong>version {template.version}</strong>
            </p>
            <p className="lc-field__description">
              Saving replaces the whole list. Employees who already began this request keep the questions they began with;
              new requests get the saved ones.
            </p>
          </div>
        )
      )}
      <section className="lc-template-editor__questions" aria-labelledby="template-questions-heading" ref={list}>
        <h2 id="template-questions-heading" tabIndex={-1}>Questions</h2>
        <p className="lc-field__description">Employees are asked one question at a time, in this order.</p>
        {fieldErrors.questions && <Message severity="error">{fieldErrors.questions}</Message>}
        <ol className="lc-template-editor__list">
          {questions.map((question, index) => (
            <li key={question.key}>
              <QuestionEditor actor={actor} question={question} position={index + 1} count={questions.length} isDisabled={!isEditing} />
            </li>
          ))}
        </ol>
        <p className="lc-visually-hidden" aria-live="polite">{announcement}</p>
        <Button variant="secondary" isDisabled={!isEditing} onPress={() => actor.send({ type: 'ADD_QUESTION' })}>
          Add a question
        </Button>
      </section>
      {formError && <Message severity="error">{formError}</Message>}
      <div className="lc-admin-actions">
        <Button type="submit" isLoading={isSaving}>{isNew ? 'Create template' : 'Save questions'}</Button>
        <Button variant="secondary" isDisabled={!isEditing} onPress={() => actor.send({ type: 'PREVIEW' })}>
          Preview
        </Button>
      </div>
    </Form>
  );
}

/** A question added takes the focus on its text; after one is removed, the focus goes to the list's heading. */
function useFocusAfterListChange(count: number) {
  const list = useRef<HTMLElement>(null);
  const before = useRef(count);
  useEffect(() => {
    if (count > before.current) list.current?.querySelector<HTMLElement>('.lc-template-editor__list > li:last-child input')?.focus();
    if (count < before.current) list.current?.querySelector<HTMLElement>('h2')?.focus();
    before.current = count;
  }, [count]);
  return list;
}

interface QuestionEditorProps {
  actor: AdminTemplateQuestionsActor;
  question: QuestionDraft;
  position: number;
  count: number;
  isDisabled: boolean;
}

function QuestionEditor({ actor, question, position, count, isDisabled }: QuestionEditorProps) {
  const errors = useSelector(actor, (snapshot) => snapshot.context.questionErrors[question.key]) ?? {};
  const { key } = question;
  const change = (changes: QuestionChanges) => actor.send({ type: 'CHANGE_QUESTION', key, changes });
  const prefill = PREFILL_OF_TYPE[question.type];
  const card = useRef<HTMLFieldSetElement>(null);
  const move = (offset: -1 | 1) => {
    actor.send({ type: 'MOVE_QUESTION', key, offset });
    // A question moved to either end can move no further that way: its other move button keeps the focus.
    const reachesEnd = offset < 0 ? position - 1 === 1 : position + 1 === count;
    if (reachesEnd) requestAnimationFrame(() => card.current?.querySelector<HTMLElement>(`[data-move="${-offset}"]`)?.focus());
  };
  const titleId = `question-${key}-title`;

  return (
    <fieldset className="lc-question-editor" aria-labelledby={titleId} ref={card}>
      <div className="lc-question-editor__top">
        <h3 id={titleId} className="lc-question-editor__title">Question {position}</h3>
        <div className="lc-admin-actions">
          <Button variant="tertiary" data-move="-1" aria-label={`Move up question ${position}`} isDisabled={isDisabled || position === 1}
            onPress={() => move(-1)}>
            Move up
          </Button>
          <Button variant="tertiary" data-move="1" aria-label={`Move down question ${position}`} isDisabled={isDisabled || position === count}
            onPress={() => move(1)}>
            Move down
          </Button>
          <Button variant="tertiary" aria-label={`Remove question ${position}`} isDisabled={isDisabled}
            onPress={() => actor.send({ type: 'REMOVE_QUESTION', key })}>
            Remove
          </Button>
        </div>
      </div>
      <TextInput label="Question" isRequired value={question.label} onChange={(label) => change({ label })} errorMessage={errors.label}
        isDisabled={isDisabled} />
      <Select label="Answer type" options={TYPE_OPTIONS} value={question.type} errorMessage={errors.type} isDisabled={isDisabled}
        onChange={(type) => change({ type })} />
      <Checkbox isSelected={question.optional} isDisabled={isDisabled} onChange={(optional) => change({ optional })}>
        <span>
          Optional
          <span className="lc-field__description">The employee may skip it.</span>
        </span>
      </Checkbox>
      {prefill && (
        <Checkbox isSelected={question.prefilled} isDisabled={isDisabled} isInvalid={Boolean(errors.prefill)}
          onChange={(prefilled) => change({ prefilled })}>
          <span>
            {PREFILL_LABELS[prefill]}
            <span className="lc-field__description">From what they told us; they can change it.</span>
          </span>
        </Checkbox>
      )}
      {errors.prefill && <Message severity="error">{errors.prefill}</Message>}
      {question.type === 'SingleSelectInput' && (
        <SelectOptions actor={actor} question={question} position={position} errors={errors} isDisabled={isDisabled} />
      )}
    </fieldset>
  );
}

interface SelectOptionsProps {
  actor: AdminTemplateQuestionsActor;
  question: QuestionDraft;
  position: number;
  errors: FieldErrors;
  isDisabled: boolean;
}

/** A single select's options: each one's label (what the employee picks) and value (what is stored). */
function SelectOptions({ actor, question, position, errors, isDisabled }: SelectOptionsProps) {
  const { key } = question;
  const legendId = `question-${key}-options`;
  return (
    <fieldset className="lc-question-editor__options" aria-labelledby={legendId}>
      <legend id={legendId} className="lc-field__label">Options of question {position}</legend>
      {errors.select_options && <Message severity="error">{errors.select_options}</Message>}
      <ol className="lc-question-editor__option-list">
        {question.options.map((option, index) => (
          // Options have no identity of their own but their place.
          <li key={index} className="lc-question-editor__option">
            <TextInput label={`Option ${index + 1}`} isRequired value={option.label} isDisabled={isDisabled}
              errorMessage={errors[`select_options.${index}.label`]}
              onChange={(label) => actor.send({ type: 'CHANGE_OPTION', key, index, changes: { label } })} />
            <TextInput label={`Value of option ${index + 1}`} isRequired value={option.value} isDisabled={isDisabled}
              errorMessage={errors[`select_options.${index}.value`]}
              onChange={(value) => actor.send({ type: 'CHANGE_OPTION', key, index, changes: { value } })} />
            <Button variant="tertiary" aria-label={`Remove option ${index + 1} of question ${position}`} isDisabled={isDisabled}
              onPress={() => actor.send({ type: 'REMOVE_OPTION', key, index })}>
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <Button variant="secondary" isDisabled={isDisabled} onPress={() => actor.send({ type: 'ADD_OPTION', key })}>
        Add an option
      </Button>
    </fieldset>
  );
}

/** The draft as the employee conversation, in the drawer employees see it in; nothing is sent. */
function TemplatePreview({ actor }: { actor: AdminTemplateQuestionsActor }) {
  const survey = useSelector(actor, (snapshot) => snapshot.context.preview);
  const name = useSelector(actor, (snapshot) => snapshot.context.template?.name ?? (snapshot.context.details.name.trim() || 'New request'));
  if (!survey) return null;
  return (
    <Drawer isOpen title={name} isDismissable className="lc-request-drawer"
      onOpenChange={(open) => !open && actor.send({ type: 'CLOSE_PREVIEW' })}>
      <div className="lc-template-preview__banner">
        <Message severity="info" title="Preview">
          This is what employees see. Nothing you answer here is saved or sent, files included; pre-filled answers show sample values.
        </Message>
        <Button variant="secondary" onPress={() => actor.send({ type: 'RESTART_PREVIEW' })}>Start again</Button>
      </div>
      <SurveyConversation key={survey.id} actor={survey} />
    </Drawer>
  );
}
