import type { ReactNode } from 'react';
import { Button, ComboBox as AriaComboBox, type ComboBoxProps as AriaComboBoxProps, Input, Popover } from 'react-aria-components';
import { FieldDescription, FieldErrorMessage, FieldLabel } from './Field.tsx';
import { kitClass } from './kitClass.ts';
import { ListBox } from './ListBox.tsx';
import './ComboBox.css';

export interface ComboBoxProps<T extends object> extends Omit<AriaComboBoxProps<T>, 'children'> {
  label: ReactNode;
  description?: ReactNode;
  /** Puts the field in an invalid state and shows the message beneath it with an icon. */
  errorMessage?: string;
  placeholder?: string;
  /** One ListBoxItem per item (with items), or the ListBoxItems themselves. */
  children: ReactNode | ((item: T) => ReactNode);
}

/** A text field that filters a list as the user types, for a pick from more options than a Select shows well. */
export function ComboBox<T extends object>({ label, description, errorMessage, placeholder, children, ...props }: ComboBoxProps<T>) {
  return (
    <AriaComboBox {...props} isInvalid={props.isInvalid ?? Boolean(errorMessage)} validationBehavior={props.validationBehavior ?? 'aria'}
      className={kitClass('lc-field lc-combobox', props.className)}>
      <FieldLabel isOptional={!props.isRequired}>{label}</FieldLabel>
      <div className="lc-combobox__control">
        <Input className="lc-field__input lc-combobox__input" placeholder={placeholder} />
        <Button className="lc-combobox__button">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorMessage>{errorMessage}</FieldErrorMessage>
      <Popover className="lc-listbox-popover">
        <ListBox<T>>{children}</ListBox>
      </Popover>
    </AriaComboBox>
  );
}
