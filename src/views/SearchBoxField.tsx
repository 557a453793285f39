import { useSelector } from '@xstate/react';
import { SearchField } from '../widgets/SearchField.tsx';
import type { SearchBoxProps } from './SearchOutcome.tsx';

/**
 * The open search field of a screen, driven by its search flow. A chunk of its own (SearchOutcome.tsx loads it when
 * the search is opened): the field's React Aria code is not part of the screen's first load.
 */
export default function SearchBoxField<Result>({ search, label, placeholder }: SearchBoxProps<Result>) {
  const text = useSelector(search, (snapshot) => snapshot.context.text);
  return (
    <SearchField className="lc-search-box" label={label} placeholder={placeholder} value={text} autoFocus
      onChange={(typed) => search.send({ type: 'TYPE', text: typed })}
      onSubmit={() => search.send({ type: 'SUBMIT' })} />
  );
}
