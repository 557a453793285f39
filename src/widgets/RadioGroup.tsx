import type { ReactNode } from 'react';
import {
  composeRenderProps,
  Radio as AriaRadio,
  RadioGroup as AriaRadioGroup,
  type RadioGroupProps as AriaRadioGroupProps,
  type RadioProps as AriaRadioProps,
} from 'react-aria-components';
import { FieldDescription, FieldErrorMessage, FieldLabel } from './Field.tsx';
import { kitClass } from './kitClass.ts';
import { checkOption } from './optionCheck.ts';
import './RadioGroup.css';

export interface RadioGroupProps extends Omit<AriaRadioGroupProps, 'children'> {
  label: ReactNode;
  /** The label is for screen readers only (the options say what they are). */
  isLabelHidden?: boolean;
  /** Says '(optional)' after the label (SPEC §5). */
  isOptional?: boolean;
  description?: ReactNode;
  /** Puts the group in an invalid state and shows the message beneath it with an icon. */
  errorMessage?: string;
  /** The Radios, laid out by the caller. */
  children: ReactNode;
}

/** One choice among a few, all in sight; arrow keys move between them. */
export function RadioGroup({ label, isLabelHidden, isOptional, description, errorMessage, children, ...props }: RadioGroupProps) {
  return (
    <AriaRadioGroup {...props} isInvalid={props.isInvalid ?? Boolean(errorMessage)}
      validationBehavior={props.validationBehavior ?? 'aria'} className={kitClass('lc-radio-group', props.className)}>
      <FieldLabel isHidden={isLabelHidden} isOptional={isOptional}>{label}</FieldLabel>
      <FieldDescription>{description}</FieldDescription>
      {children}
      <FieldErrorMessage>{errorMessage}</FieldErrorMessage>
    </AriaRadioGroup>
  );
}

export const RADIO_VARIANTS = ['dot', 'pill', 'custom'] as const;
export type RadioVariant = (typeof RADIO_VARIANTS)[number];

export interface RadioProps extends AriaRadioProps {
  /** dot: a round mark before the label (default); pill: a bordered pill filled when chosen; custom: the caller's class draws it. */
  variant?: RadioVariant;
  /** A second line in smaller, muted text (dot radios). */
  description?: ReactNode;
}

export function Radio({ variant = 'dot', description, children, ...props }: RadioProps) {
  checkOption('Radio', 'variant', variant, RADIO_VARIANTS);
  return (
    <AriaRadio {...props} className={kitClass(`lc-radio lc-radio--${variant}`, props.className)}>
      {variant === 'dot'
        ? composeRenderProps(children, (label) => (
          <>
            <span className="lc-radio__dot" aria-hidden="true" />
            <span>
              {label}
              {description && <span className="lc-radio__description">{description}</span>}
            </span>
          </>
        ))
        : children}
    </AriaRadio>
  );
}

export interface ChoiceFieldProps<V extends string> extends Omit<RadioGroupProps, 'children' | 'value' | 'defaultValue' | 'onChange'> {
  options: ReadonlyArray<{ value: V; label: string; description?: string }>;
  value: V;
  onChange: (value: V) => void;
}

/** A labelled choice among a few options, one dot radio each. */
export function ChoiceField<V extends string>({ options, value, onChange, ...props }: ChoiceFieldProps<V>) {
  return (
    <RadioGroup {...props} value={value} onChange={(chosen) => onChange(chosen as V)}
      className={kitClass('lc-field', props.className)}>
      <div className="lc-radio-group__options">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} description={option.description}>{option.label}</Radio>
        ))}
      </div>
    </RadioGroup>
  );
}
