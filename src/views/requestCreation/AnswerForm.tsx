import type { FormEvent } from 'react';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { QUESTION_INPUTS, type QuestionInputProps } from './QuestionInputs.tsx';

export interface AnswerFormProps extends QuestionInputProps {
  /** 'Continue' for the question being asked, 'Save' for an edit. */
  submitLabel: 'Continue' | 'Save';
  /** SPEC §5: disabled while the answer is empty (for an upload, while no file is there). */
  canSubmit: boolean;
  onSubmit: () => void;
  isSubmitting: boolean;
  /** Shown for an optional question being asked. */
  onSkip?: () => void;
  /** Shown for an edit. */
  onCancel?: () => void;
  /** A server failure; submitting again retries. */
  failure: string | null;
}

/** One question's input with its buttons: Continue (and Skip) while asked, Save and Cancel while edited. */
export function AnswerForm({
  submitLabel, canSubmit, onSubmit, isSubmitting, onSkip, onCancel, failure, ...inputProps
}: AnswerFormProps) {
  const Input = QUESTION_INPUTS[inputProps.item.question.type];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) onSubmit();
  };
  return (
    <form className="lc-answer-form" onSubmit={submit} noValidate>
      <Input {...inputProps} />
      {failure && <Message severity="error">{failure}</Message>}
      <div className="lc-answer-form__actions">
        {onCancel && (
          <Button variant="secondary" onPress={onCancel} isDisabled={isSubmitting}>
            Cancel
          </Button>
        )}
        {onSkip && (
          <Button variant="tertiary" onPress={onSkip} isDisabled={isSubmitting}>
            Skip
          </Button>
        )}
        <Button type="submit" isDisabled={!canSubmit && !isSubmitting} isLoading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
