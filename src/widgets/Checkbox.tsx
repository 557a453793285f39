import type { ReactNode } from 'react';
import {
  Checkbox as AriaCheckbox,
  CheckboxGroup as AriaCheckboxGroup,
  type CheckboxGroupProps as AriaCheckboxGroupProps,
  type CheckboxProps as AriaCheckboxProps,
} from 'react-aria-components';
import { FieldDescription, FieldErrorMessage, FieldLabel } from './Field.tsx';
import { kitClass } from './kitClass.ts';
import './Checkbox.css';

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'children'> {
  children: ReactNode;
  /** A second line in smaller, muted text, part of the checkbox's label. */
  description?: ReactNode;
}

/** A box to tick, its label beside it; in a CheckboxGroup, give each one a value. */
export function Checkbox({ children, description, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox {...props} className={kitClass('lc-checkbox', props.className)}>
      <span className="lc-checkbox__box" aria-hidden="true" />
      <span>
        {children}
        {description && <span className="lc-field__description">{description}</span>}
      </span>
    </AriaCheckbox>
  );
}

export interface CheckboxGroupProps extends Omit<AriaCheckboxGroupProps, 'children'> {
  label: ReactNode;
  description?: ReactNode;
  /** Puts the group in an invalid state and shows the message beneath it with an icon. */
  errorMessage?: string;
  /** The Checkboxes, laid out by the caller. */
  children: ReactNode;
}

/** Several boxes to tick under one label, their value the list of the ticked boxes' values. */
export function CheckboxGroup({ label, description, errorMessage, children, ...props }: CheckboxGroupProps) {
  return (
    <AriaCheckboxGroup {...props} isInvalid={props.isInvalid ?? Boolean(errorMessage)}
      validationBehavior={props.validationBehavior ?? 'aria'} className={kitClass('lc-field lc-checkbox-group', props.className)}>
      <FieldLabel>{label}</FieldLabel>
      <FieldDescription>{description}</FieldDescription>
      {children}
      <FieldErrorMessage>{errorMessage}</FieldErrorMessage>
    </AriaCheckboxGroup>
  );
}
