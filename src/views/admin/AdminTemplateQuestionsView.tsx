import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { QUESTION_TYPES, type QuestionPrefill, type QuestionType } from '../../contract/surveys.ts';
import type { AdminSurveyCategory, AdminTemplate } from '../../contract/adminCatalogue.ts';
import type { AdminCollectionActor } from '../../machines/adminCollection.ts';
import type { FieldErrors } from '../../machines/adminForms.ts';
import {
  PREFILL_OF_TYPE,
  type QuestionChanges,
  type QuestionDraft,
  type QuestionEdit,
  type TemplateDraft,
  previewNameOf,
} from '../../machines/adminTemplateQuestions.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Checkbox } from '../../widgets/Checkbox.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { SurveyConversation, type SurveyActor } from '../requestCreation/SurveyConversation.tsx';
import { DiscardQuestion, EntryTools, FormFields } from './AdminCollection.tsx';
import { AdminListFrame } from './AdminParts.tsx';
import { TemplateDetailsFields } from './AdminSurveysView.tsx';
import '../requestCreation/requestCreation.css';

/** The editor's actor, as its view reads it (adminTemplateQuestionsMachine's). */
export type AdminTemplateQuestionsActor = AdminCollectionActor<AdminTemplate, TemplateDraft, AdminSurveyCategory[], QuestionEdit>;

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
 * optional flag, pre-fill and options, in order; saved as a whole, and previewed beside it as the employee
 * conversation. Leaving it with changes asks first.
 */
export function AdminTemplateQuestionsView({ editor: actor }: { editor: AdminTemplateQuestionsActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.form);
  const isNew = useSelector(actor, (snapshot) => (snapshot.context.form ?? snapshot.context.opening)?.itemId === null);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const isAskingToDiscard = useSelector(actor, (snapshot) => snapshot.matches('confirmingDiscard'));
  const heading = form?.record?.name ?? (isNew ? 'New request template' : 'Request template');
  const send = (event: { type: 'SAVE' | 'CANCEL' | 'DISCARD' | 'KEEP_EDITING' }) => actor.send(event);

  return (
    <AdminListFrame heading={heading} isBusy={isBusy} loadError={loadError} onRetry={() => actor.send({ type: 'RETRY' })}
      notice={notice} isLoaded={form !== null}
      action={<Button variant="secondary" isDisabled={isSaving} onPress={() => send({ type: 'CANCEL' })}>Back to surveys</Button>}>
      <div className="lc-template-editor">
        <FormFields saveLabel={isNew ? 'Create template' : 'Save questions'} isSaving={isSaving} formError={formError} send={send}
          className="lc-admin-form lc-template-editor__form">
          <QuestionsFields actor={actor} />
        </FormFields>
        <TemplatePreview actor={actor} />
      </div>
      <DiscardQuestion isOpen={isAskingToDiscard} send={send}
        unsaved={isNew ? 'This template has not been created yet.' : 'Your changes to these questions have not been saved.'} />
    </AdminListFrame>
  );
}

function QuestionsFields({ actor }: { actor: AdminTemplateQuestionsActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.form);
  const categories = useSelector(actor, (snapshot) => snapshot.context.choices) ?? [];
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const announcement = useSelector(actor, (snapshot) => snapshot.context.announcement);
  const isEditing = useSelector(actor, (snapshot) => snapshot.matches('editing'));
  const list = useFocusAfterListChange(form?.draft.questions.length ?? 0);
  if (!form) return null;
  const { draft, record: template } = form;
  const categoryName = categories.find((category) => category.id === template?.category_id)?.name ?? 'No category';
  const edit = (questionEdit: QuestionEdit) => actor.send({ type: 'EDIT_DRAFT', edit: questionEdit });

  return (
    <>
      {template ? (
        <div className="lc-template-editor__summary">
          <p>
            {template.slug} · {categoryName} · {template.for_alpha ? 'for alpha' : 'not for alpha'} · <strong>version {template.version}</strong>
          </p>
          <p className="lc-field__description">
            Saving replaces the whole list. Employees who already began this request keep the questions they began with;
            new requests get the saved ones.
          </p>
        </div>
      ) : (
        <fieldset className="lc-template-editor__details">
          <legend className="lc-template-editor__legend">Details</legend>
          <TemplateDetailsFields draft={draft} categories={categories} fieldErrors={fieldErrors} isNew
            onChange={(changes) => actor.send({ type: 'CHANGE', changes })} />
        </fieldset>
      )}
      <section className="lc-template-editor__questions" aria-labelledby="template-questions-heading" ref={list}>
        <h2 id="template-questions-heading" tabIndex={-1}>Questions</h2>
        <p className="lc-field__description">Employees are asked one question at a time, in this order.</p>
        {fieldErrors.questions && <Message severity="error">{fieldErrors.questions}</Message>}
        <ol className="lc-template-editor__list">
          {draft.questions.map((question, index) => (
            <li key={question.key}>
              <QuestionEditor question={question} index={index} count={draft.questions.length} errors={questionErrorsOf(fieldErrors, index)}
                edit={edit} isDisabled={!isEditing} />
            </li>
          ))}
        </ol>
        <p className="lc-visually-hidden" aria-live="polite">{announcement}</p>
        <Button variant="secondary" isDisabled={!isEditing} onPress={() => edit({ kind: 'addQuestion' })}>
          Add a question
        </Button>
      </section>
    </>
  );
}

/** The messages about the question at `index`, by their path inside it ('label', 'select_options.0.value'). */
function questionErrorsOf(fieldErrors: FieldErrors, index: number): FieldErrors {
  const prefix = `questions.${index}.`;
  return Object.fromEntries(Object.entries(fieldErrors).flatMap(([path, message]) => (path.startsWith(prefix) ? [[path.slice(prefix.length), message]] : [])));
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
  question: QuestionDraft;
  index: number;
  count: number;
  /** The messages about this question, by their path inside it. */
  errors: FieldErrors;
  edit: (edit: QuestionEdit) => void;
  isDisabled: boolean;
}

function QuestionEditor({ question, index, count, errors, edit, isDisabled }: QuestionEditorProps) {
  const position = index + 1;
  const change = (changes: QuestionChanges) => edit({ kind: 'changeQuestion', question: index, changes });
  const prefill = PREFILL_OF_TYPE[question.type];
  const card = useRef<HTMLFieldSetElement>(null);
  const move = (by: -1 | 1) => {
    edit({ kind: 'moveQuestion', question: index, by });
    // A question moved to either end can move no further that way: its other move button keeps the focus.
    const reachesEnd = by < 0 ? index - 1 === 0 : index + 1 === count - 1;
    if (reachesEnd) requestAnimationFrame(() => card.current?.querySelector<HTMLElement>(`[data-move="${-by}"]`)?.focus());
  };
  const titleId = `question-${question.key}-title`;

  return (
    <fieldset className="lc-question-editor" aria-labelledby={titleId} ref={card}>
      <div className="lc-admin-bar">
        <h3 id={titleId} className="lc-question-editor__title">Question {position}</h3>
        <EntryTools names={[`Move up question ${position}`, `Move down question ${position}`, `Remove question ${position}`]}
          text={['Move up', 'Move down']} index={index} count={count} isDisabled={isDisabled} onMove={move}
          onRemove={() => edit({ kind: 'removeQuestion', question: index })} />
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
        <SelectOptions question={question} index={index} errors={errors} edit={edit} isDisabled={isDisabled} />
      )}
    </fieldset>
  );
}

/** A single select's options: each one's label (what the employee picks) and value (what is stored). */
function SelectOptions({ question, index, errors, edit, isDisabled }: Omit<QuestionEditorProps, 'count'>) {
  const position = index + 1;
  const legendId = `question-${question.key}-options`;
  const changeOption = (option: number, changes: { label?: string; value?: string }) => edit({ kind: 'changeOption', question: index, option, changes });
  return (
    <fieldset className="lc-question-editor__options" aria-labelledby={legendId}>
      <legend id={legendId} className="lc-field__label">Options of question {position}</legend>
      {errors.select_options && <Message severity="error">{errors.select_options}</Message>}
      <ol className="lc-question-editor__option-list">
        {question.options.map((option, place) => (
          // Options have no identity of their own but their place.
          <li key={place} className="lc-question-editor__option">
            <TextInput label={`Option ${place + 1}`} isRequired value={option.label} isDisabled={isDisabled}
              errorMessage={errors[`select_options.${place}.label`]} onChange={(label) => changeOption(place, { label })} />
            <TextInput label={`Value of option ${place + 1}`} isRequired value={option.value} isDisabled={isDisabled}
              errorMessage={errors[`select_options.${place}.value`]} onChange={(value) => changeOption(place, { value })} />
            <Button variant="tertiary" aria-label={`Remove option ${place + 1} of question ${position}`} isDisabled={isDisabled}
              onPress={() => edit({ kind: 'removeOption', question: index, option: place })}>
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <Button variant="secondary" isDisabled={isDisabled} onPress={() => edit({ kind: 'addOption', question: index })}>
        Add an option
      </Button>
    </fieldset>
  );
}

/**
 * Beside the questions (below them on a narrow screen): the draft as the employee conversation, started on request;
 * nothing is sent.
 */
function TemplatePreview({ actor }: { actor: AdminTemplateQuestionsActor }) {
  const survey = useSelector(actor, (snapshot) => snapshot.context.preview) as SurveyActor | null;
  const name = useSelector(actor, (snapshot) => (snapshot.context.form ? previewNameOf(snapshot.context.form) : ''));
  const isEditing = useSelector(actor, (snapshot) => snapshot.matches('editing'));
  return (
    <section className="lc-template-preview" aria-labelledby="template-preview-heading">
      <h2 id="template-preview-heading">Preview</h2>
      {survey ? (
        <>
          <Message severity="info" title={name}>
            This is what employees see. Nothing you answer here is saved or sent, files included; pre-filled answers show sample values.
          </Message>
          <div className="lc-admin-actions">
            <Button variant="secondary" onPress={() => actor.send({ type: 'RESTART_PREVIEW' })}>Start again</Button>
            <Button variant="tertiary" onPress={() => actor.send({ type: 'CLOSE_PREVIEW' })}>Close the preview</Button>
          </div>
          <SurveyConversation key={survey.id} actor={survey} />
        </>
      ) : (
        <>
          <p className="lc-field__description">Answer the questions as employees will, one at a time. Nothing is saved or sent.</p>
          <Button variant="secondary" isDisabled={!isEditing} onPress={() => actor.send({ type: 'PREVIEW' })}>Preview</Button>
        </>
      )}
    </section>
  );
}
