import type { ComponentType } from 'react';
import type { NextScreenItem, QuestionType } from '../../contract/surveys.ts';
import type { AnswerDraft } from '../../machines/survey.machine.ts';
import type { UploadActor } from '../../machines/upload.machine.ts';
import { PhoneInput } from '../../widgets/PhoneInput.tsx';
import { Radio, RadioGroup } from '../../widgets/RadioGroup.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { UploadField } from '../UploadField.tsx';

/** What every question input is given: the question, its draft, and where changes go. */
export interface QuestionInputProps {
  item: NextScreenItem;
  draft: AnswerDraft;
  onChange: (value: string) => void;
  /** Upload questions: the upload the survey runs for this answer (it takes the uploaded file's key). */
  upload?: UploadActor;
  errorMessage?: string;
  isDisabled: boolean;
  /** Upload questions, when an earlier answer is edited: the file it has, kept unless another one is uploaded. */
  keptFileName?: string;
}

function TextQuestion({ item, draft, onChange, errorMessage, isDisabled }: QuestionInputProps) {
  return (
    <TextInput label={item.question.label} isRequired={!item.optional} value={draft.value} onChange={onChange}
      errorMessage={errorMessage} isDisabled={isDisabled} autoFocus className="lc-question__field" />
  );
}

function MultilineQuestion({ item, draft, onChange, errorMessage, isDisabled }: QuestionInputProps) {
  return (
    <TextInput type="textarea" rows={4} label={item.question.label} isRequired={!item.optional} value={draft.value}
      onChange={onChange} errorMessage={errorMessage} isDisabled={isDisabled} autoFocus className="lc-question__field" />
  );
}

/** SPEC §5: masked (999) 999-9999. */
function PhoneQuestion({ item, draft, onChange, errorMessage, isDisabled }: QuestionInputProps) {
  return (
    <PhoneInput label={item.question.label} isRequired={!item.optional} value={draft.value} onChange={onChange}
      errorMessage={errorMessage} isDisabled={isDisabled} autoFocus className="lc-question__field" />
  );
}

function EmailQuestion({ item, draft, onChange, errorMessage, isDisabled }: QuestionInputProps) {
  return (
    <TextInput type="email" inputMode="email" autoComplete="email" label={item.question.label} isRequired={!item.optional}
      value={draft.value} onChange={onChange} errorMessage={errorMessage} isDisabled={isDisabled} autoFocus
      className="lc-question__field" />
  );
}

function SelectQuestion({ item, draft, onChange, errorMessage, isDisabled }: QuestionInputProps) {
  return (
    <RadioGroup label={item.question.label} isOptional={item.optional} value={draft.value || null} onChange={onChange}
      isRequired={!item.optional} isDisabled={isDisabled} errorMessage={errorMessage} className="lc-question__field lc-question-options">
      <div className="lc-question-options__list">
        {(item.question.select_options ?? []).map((option) => (
          <Radio key={option.value} value={option.value} variant="pill">
            {option.label}
          </Radio>
        ))}
      </div>
    </RadioGroup>
  );
}

/** The file uploads itself (presigned by our server) and tells the survey its key; an earlier answer's file is named. */
function UploadQuestion({ item, keptFileName, upload, isDisabled }: QuestionInputProps) {
  const labelId = `question-${item.id}-label`;
  return (
    <div role="group" aria-labelledby={labelId} className="lc-question__field lc-question-upload">
      <p className="lc-field__label" id={labelId}>
        {item.question.label}
        {item.optional && <>{' '}<span className="lc-field__optional">(optional)</span></>}
      </p>
      {keptFileName && <p className="lc-question-upload__kept">Current file: {keptFileName}</p>}
      {upload && <UploadField upload={upload} label={keptFileName ? 'Choose another file' : 'Choose a file'} isDisabled={isDisabled} />}
    </div>
  );
}

/** SPEC §3 question types: one input component each. */
export const QUESTION_INPUTS: Record<QuestionType, ComponentType<QuestionInputProps>> = {
  TextInput: TextQuestion,
  MultilineTextInput: MultilineQuestion,
  PhoneNumberInput: PhoneQuestion,
  ManagedEmailInput: EmailQuestion,
  SingleSelectInput: SelectQuestion,
  SingleUploadInput: UploadQuestion,
};
