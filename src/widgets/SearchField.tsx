import type { ReactNode } from 'react';
import { Input, SearchField as AriaSearchField, type SearchFieldProps as AriaSearchFieldProps } from 'react-aria-components';
import { FieldDescription, FieldLabel } from './Field.tsx';
import { kitClass } from './kitClass.ts';

export interface SearchFieldProps extends AriaSearchFieldProps {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
}

/** A search box: Enter submits (onSubmit), Escape clears it. */
export function SearchField({ label, description, placeholder, ...props }: SearchFieldProps) {
  return (
    <AriaSearchField {...props} className={kitClass('lc-field lc-search-field', props.className)}>
      <FieldLabel>{label}</FieldLabel>
      <Input className="lc-field__input" placeholder={placeholder} />
      <FieldDescription>{description}</FieldDescription>
    </AriaSearchField>
  );
}
