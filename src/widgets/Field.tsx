import type { ReactNode } from 'react';
import { FieldError, Label, Text } from 'react-aria-components';
import { ErrorIcon } from './icons.tsx';
import './TextInput.css';

/**
 * The parts every labelled field of the kit shares (TextInput draws the same ones): put them inside a React Aria
 * field (Select, ComboBox, RadioGroup, DatePicker...), which ties them to its input by id.
 */

export interface FieldLabelProps {
  children: ReactNode;
  /** Fields not required say so after their label (SPEC §5). */
  isOptional?: boolean;
  /** For a field whose purpose its surroundings show (a table's row): the label is for screen readers only. */
  isHidden?: boolean;
}

export function FieldLabel({ children, isOptional = false, isHidden = false }: FieldLabelProps) {
  return (
    <Label className={isHidden ? 'lc-visually-hidden' : 'lc-field__label'}>
      {children}
      {isOptional && <>{' '}<span className="lc-field__optional">(optional)</span></>}
    </Label>
  );
}

export function FieldDescription({ children }: { children?: ReactNode }) {
  return children ? <Text slot="description" className="lc-field__description">{children}</Text> : null;
}

/** Shown while the field is invalid, with an icon. */
export function FieldErrorMessage({ children }: { children?: ReactNode }) {
  return (
    <FieldError className="lc-field__error">
      <ErrorIcon size={16} className="lc-field__error-icon" />
      <span>{children}</span>
    </FieldError>
  );
}
