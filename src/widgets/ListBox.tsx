import {
  ListBox as AriaListBox,
  ListBoxItem as AriaListBoxItem,
  type ListBoxItemProps,
  type ListBoxProps,
} from 'react-aria-components';
import { kitClass } from './kitClass.ts';
import './ListBox.css';

/** A list to choose from with arrow keys; Select and ComboBox show one in their popover. */
export function ListBox<T extends object>(props: ListBoxProps<T>) {
  return <AriaListBox {...props} className={kitClass('lc-listbox', props.className)} />;
}

export function ListBoxItem<T extends object>(props: ListBoxItemProps<T>) {
  const textValue = props.textValue ?? (typeof props.children === 'string' ? props.children : undefined);
  return <AriaListBoxItem {...props} textValue={textValue} className={kitClass('lc-listbox__item', props.className)} />;
}
