import { useSelector } from '@xstate/react';
import { type ReactNode, Suspense } from 'react';
import type { ActorRefFrom } from 'xstate';
import { isSearchOpen, type searchMachine } from '../machines/search.ts';
import { lazyPage } from '../services/lazyPage.ts';
import { Button } from '../widgets/Button.tsx';
import { SearchIcon } from '../widgets/icons.tsx';
import { Message } from '../widgets/Message.tsx';
import './SearchOutcome.css';

type SearchActor<Result> = ActorRefFrom<ReturnType<typeof searchMachine<Result>>>;

/** How many results answer the query, in words (issue 32: the result count). */
export function searchCountText(count: number, query: string): string {
  if (count === 0) return `No results for “${query}”`;
  return `${count} ${count === 1 ? 'result' : 'results'} for “${query}”`;
}

export const SEARCHING_TEXT = 'Searching…';

export interface SearchBoxProps<Result> {
  search: SearchActor<Result>;
  label: string;
  placeholder?: string;
}

const SearchBoxField = lazyPage(() => import('./SearchBoxField.tsx'));

/**
 * The search of a screen, driven by its search flow (searchMachine): a button named like the field until the search
 * is opened, then the field itself, focused (its code loads then; the button stays, busy, while it does).
 */
export function SearchBox<Result>(props: SearchBoxProps<Result>) {
  const { search, label } = props;
  const isOpen = useSelector(search, isSearchOpen);
  const opener = (
    <Button variant="secondary" className="lc-search-box lc-search-box__opener" isLoading={isOpen}
      onPress={() => search.send({ type: 'OPEN' })}>
      <SearchIcon size={18} />
      {label}
    </Button>
  );
  if (!isOpen) return opener;
  return (
    <Suspense fallback={opener}>
      <SearchBoxField {...(props as SearchBoxProps<unknown>)} />
    </Suspense>
  );
}

/**
 * What a search has found, in place of the screen's usual content while a search is on: the count (announced), the
 * results (the last ones stay while the next search is typed or under way), or the failure with Try again.
 */
export function SearchOutcome<Result>({ search, children }: { search: SearchActor<Result>; children: (results: Result[]) => ReactNode }) {
  const results = useSelector(search, (snapshot) => snapshot.context.results);
  const query = useSelector(search, (snapshot) => snapshot.context.query);
  const error = useSelector(search, (snapshot) => snapshot.context.error);
  const isFound = useSelector(search, (snapshot) => snapshot.matches('found'));
  const isBusy = useSelector(search, (snapshot) => !snapshot.matches('found') && !snapshot.matches('failed'));

  return (
    <section className="lc-search-outcome" aria-label="Search results" aria-busy={isBusy}>
      <p role="status" className="lc-search-outcome__count">
        {isFound && results ? searchCountText(results.length, query) : isBusy ? SEARCHING_TEXT : ''}
      </p>
      {error && (
        <div className="lc-search-outcome__failure">
          <Message severity="error">{error}</Message>
          <Button variant="secondary" onPress={() => search.send({ type: 'RETRY' })}>Try again</Button>
        </div>
      )}
      {results && results.length > 0 && !error && children(results)}
    </section>
  );
}
