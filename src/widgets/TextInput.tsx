import { type ReactNode, useEffect, useEffectEvent, useRef, useState } from 'react';
import { FieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import { ErrorIcon } from './icons.tsx';
import { applyMask, isMaskComplete, maskTemplate } from './mask.ts';
import { checkOption } from './optionCheck.ts';
import { takeTypingBeforeHydration } from './typingBeforeHydration.ts';
import './TextInput.css';

export const TEXT_INPUT_TYPES = ['date', 'email', 'number', 'password', 'search', 'tel', 'text', 'textarea', 'url'] as const;
export type TextInputType = (typeof TEXT_INPUT_TYPES)[number];
export type TextInputMode = 'none' | 'text' | 'tel' | 'url' | 'email' | 'numeric' | 'decimal' | 'search';

export interface TextInputProps {
  label: ReactNode;
  name?: string;
  /** 'number' is held as text with a numeric keyboard (no spinner, no locale reformatting). */
  type?: TextInputType;
  placeholder?: string;
  /** Fields not required show the suffix '(optional)' (SPEC §5). */
  isRequired?: boolean;
  /** Puts the field in an invalid state and shows the message beneath it with an icon. */
  errorMessage?: string;
  inputMode?: TextInputMode;
  /** Visible rows of a textarea. */
  rows?: number;
  /** SPEC §5 mask: 9 digit, a letter, * letter or digit, ? makes the rest optional. */
  mask?: string;
  /** Shown in the unfilled positions of the mask placeholder when no placeholder is given. */
  slotChar?: string;
  value?: string;
  defaultValue?: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  autoComplete?: string;
  description?: ReactNode;
  autoFocus?: boolean;
  isDisabled?: boolean;
  className?: string;
}

export function TextInput({
  label, name, type = 'text', placeholder, isRequired = false, errorMessage, inputMode, rows = 4, mask, slotChar = '_',
  value, defaultValue, onChange, onBlur, autoComplete, description, autoFocus, isDisabled, className,
}: TextInputProps) {
  checkOption('TextInput', 'type', type, TEXT_INPUT_TYPES);
  const isControlled = value !== undefined;
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  // Only a masked field needs its own copy of the value: it rewrites what the user types before showing it.
  const [maskedValue, setMaskedValue] = useState(() => (mask ? applyMask(mask, defaultValue ?? '') : ''));
  const currentMaskedValue = isControlled ? value : maskedValue;

  const changeMasked = (next: string) => {
    if (!isControlled) setMaskedValue(next);
    onChange?.(next);
  };

  // Text typed into a prerendered field before the page was hydrated (which resets it) is taken back.
  const takeBackEarlyTyping = useEffectEvent(() => {
    const typed = takeTypingBeforeHydration(field.current);
    if (!typed) return;
    if (mask) changeMasked(applyMask(mask, typed));
    else onChange?.(typed);
  });
  useEffect(() => takeBackEarlyTyping(), []);

  const valueProps = mask
    ? {
        value: currentMaskedValue,
        onChange: (typed: string) => changeMasked(applyMask(mask, typed)),
        onBlur: () => {
          // SPEC §5: an incomplete masked value is cleared when the user leaves the field.
          if (currentMaskedValue !== '' && !isMaskComplete(mask, currentMaskedValue)) changeMasked('');
          onBlur?.();
        },
      }
    : { value, defaultValue, onChange, onBlur: onBlur && (() => onBlur()) };

  const isInvalid = Boolean(errorMessage);
  const resolvedPlaceholder = placeholder ?? (mask ? maskTemplate(mask, slotChar) : undefined);
  const isNumber = type === 'number';
  const inputType = isNumber ? 'text' : type;

  return (
    <TextField
      {...valueProps}
      name={name}
      type={type === 'textarea' ? undefined : inputType}
      inputMode={inputMode ?? (isNumber ? 'numeric' : undefined)}
      isRequired={isRequired}
      isInvalid={isInvalid}
      isDisabled={isDisabled}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      // Validation messages come from the app's statecharts (SPEC strings), not from the browser.
      validationBehavior="aria"
      className={['lc-field', className].filter(Boolean).join(' ')}
    >
      <Label className="lc-field__label">
        {label}
        {!isRequired && <>{' '}<span className="lc-field__optional">(optional)</span></>}
      </Label>
      {type === 'textarea'
        ? <TextArea ref={field} className="lc-field__input lc-field__input--textarea" rows={rows} placeholder={resolvedPlaceholder} />
        : <Input ref={field} className="lc-field__input" placeholder={resolvedPlaceholder} />}
      {description && <Text slot="description" className="lc-field__description">{description}</Text>}
      <FieldError className="lc-field__error">
        <ErrorIcon size={16} className="lc-field__error-icon" />
        <span>{errorMessage}</span>
      </FieldError>
    </TextField>
  );
}
