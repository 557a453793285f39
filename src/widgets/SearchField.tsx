import type { ReactNode } from 'react';
import { Button, Group, Input, SearchField as AriaSearchField, type SearchFieldProps as AriaSearchFieldProps } from 'react-aria-components';
import { FieldDescription, FieldLabel } from './Field.tsx';
import { CloseIcon } from './icons.tsx';
import { kitClass } from './kitClass.ts';
import './SearchField.css';

export interface SearchFieldProps extends AriaSearchFieldProps {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
}

/**
 * A search box: Enter submits (onSubmit); Escape or the clear button (shown once something is typed, named 'Clear
 * search' by React Aria) empties it, which onChange reports.
 */
export function SearchField({ label, description, placeholder, ...props }: SearchFieldProps) {
  return (
    <AriaSearchField {...props} className={kitClass('lc-field lc-search-field', props.className)}>
      <FieldLabel>{label}</FieldLabel>
      <Group className="lc-search-field__group">
        <Input className="lc-field__input lc-search-field__input" placeholder={placeholder} />
        <Button className="lc-search-field__clear">
          <CloseIcon />
        </Button>
      </Group>
      <FieldDescription>{description}</FieldDescription>
    </AriaSearchField>
  );
}
