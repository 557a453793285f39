import type { ReactNode } from 'react';
import { Button, type Key, Popover, Select as AriaSelect, type SelectProps as AriaSelectProps, SelectValue } from 'react-aria-components';
import { FieldDescription, FieldErrorMessage, FieldLabel } from './Field.tsx';
import { kitClass } from './kitClass.ts';
import { ListBox, ListBoxItem } from './ListBox.tsx';
import './Select.css';

export interface SelectOption<K extends Key> {
  id: K;
  label: string;
}

export interface SelectProps<K extends Key>
  extends Omit<AriaSelectProps<SelectOption<K>>, 'children' | 'items' | 'selectedKey' | 'defaultSelectedKey' | 'onSelectionChange' | 'value' | 'defaultValue' | 'onChange' | 'selectionMode'> {
  label: ReactNode;
  /** The label is for screen readers only (the field's place says what it is). */
  isLabelHidden?: boolean;
  options: ReadonlyArray<SelectOption<K>>;
  /** Null: nothing chosen yet (the placeholder shows). */
  value: K | null;
  onChange: (value: K) => void;
  description?: ReactNode;
  /** Puts the field in an invalid state and shows the message beneath it with an icon. */
  errorMessage?: string;
}

/** A labelled pick from a list: a button showing the choice, opening the list in a popover. */
export function Select<K extends Key>({ label, isLabelHidden, options, value, onChange, description, errorMessage, ...props }: SelectProps<K>) {
  return (
    <AriaSelect {...props} selectedKey={value} onSelectionChange={(chosen) => chosen !== null && onChange(chosen as K)}
      isInvalid={props.isInvalid ?? Boolean(errorMessage)} validationBehavior={props.validationBehavior ?? 'aria'}
      className={kitClass('lc-field lc-select', props.className)}>
      <FieldLabel isHidden={isLabelHidden}>{label}</FieldLabel>
      <Button className="lc-select__button">
        <SelectValue />
        <span aria-hidden="true" className="lc-select__chevron">▾</span>
      </Button>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorMessage>{errorMessage}</FieldErrorMessage>
      <Popover className="lc-listbox-popover">
        <ListBox items={options}>
          {(option) => <ListBoxItem id={option.id}>{option.label}</ListBoxItem>}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
