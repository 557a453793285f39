import { useSelector } from '@xstate/react';
import { type RefObject, useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { matchingReplies, type savedReplyPickerMachine } from '../../machines/savedReplyPicker.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { ComboBox } from '../../widgets/ComboBox.tsx';
import { ListBoxItem } from '../../widgets/ListBox.tsx';
import { RetryMessage } from '../../widgets/Message.tsx';
import { Spinner } from '../../widgets/Spinner.tsx';
import './SavedReplyPicker.css';

export type SavedReplyPickerActor = ActorRefFrom<typeof savedReplyPickerMachine>;

export const SAVED_REPLY_HINT = 'Type / at the start of a word to insert a saved reply.';

/**
 * The composer's saved replies (issue 28): a searchable list (short code or title) that the picker's flow opens when
 * `/` is typed; the chosen reply, filled in, goes to `onInsert`. Focus moves into the search when it opens and back to
 * the editor (`returnFocusTo`) when it closes.
 */
export function SavedReplyPicker({
  picker,
  onInsert,
  returnFocusTo,
}: {
  picker: SavedReplyPickerActor;
  onInsert: (bodyMarkdown: string) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const isOpen = useSelector(picker, (snapshot) => snapshot.matches('choosing'));
  const replies = useSelector(picker, (snapshot) => snapshot.context.replies);
  const query = useSelector(picker, (snapshot) => snapshot.context.query);
  const error = useSelector(picker, (snapshot) => snapshot.context.error);
  const announcement = useSelector(picker, (snapshot) => snapshot.context.announcement);
  const loadFailed = useSelector(picker, (snapshot) => snapshot.matches({ choosing: 'loadFailed' }));
  const isBusy = useSelector(picker, (snapshot) => snapshot.hasTag('busy'));
  const isFilling = useSelector(picker, (snapshot) => snapshot.matches({ choosing: 'filling' }));

  // The flow tells what to insert; the composer owns its text.
  const insertRef = useRef(onInsert);
  useEffect(() => {
    insertRef.current = onInsert;
  });
  useEffect(() => {
    const subscription = picker.on('inserted', ({ bodyMarkdown }) => insertRef.current(bodyMarkdown));
    return () => subscription.unsubscribe();
  }, [picker]);

  const wasOpen = useRef(false);
  useEffect(() => {
    // After the list's popup has given focus back, which it does as it unmounts.
    if (wasOpen.current && !isOpen) requestAnimationFrame(() => returnFocusTo.current?.querySelector<HTMLElement>('textarea, input')?.focus());
    wasOpen.current = isOpen;
  }, [isOpen, returnFocusTo]);

  if (!isOpen) {
    return (
      <>
        <p className="lc-saved-replies__hint">{SAVED_REPLY_HINT}</p>
        <p role="status" className="lc-visually-hidden">{announcement ?? ''}</p>
      </>
    );
  }

  const matching = matchingReplies(replies ?? [], query);
  return (
    <section className="lc-saved-replies" aria-label="Saved replies" aria-busy={isBusy}
      onKeyDownCapture={(event) => {
        // Escape leaves the saved replies at once, the text as typed (before the list would clear its search).
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        picker.send({ type: 'CLOSE' });
      }}>
      {loadFailed && error ? (
        <RetryMessage onRetry={() => picker.send({ type: 'RETRY' })}>{error}</RetryMessage>
      ) : replies === null ? (
        <Spinner />
      ) : replies.length === 0 ? (
        <p className="lc-saved-replies__empty">No saved replies yet. An admin adds them under Administration.</p>
      ) : (
        <>
          <ComboBox label="Saved reply" description="Search by short code or title; Enter inserts it." autoFocus menuTrigger="focus" allowsCustomValue
            // A failed insertion is the field's error: read with it, even while its list hides the rest of the page.
            errorMessage={loadFailed ? undefined : (error ?? undefined)} items={matching} inputValue={query} allowsEmptyCollection
            onInputChange={(typed) => picker.send({ type: 'SEARCH', query: typed })}
            onSelectionChange={(key) => {
              if (key !== null) picker.send({ type: 'CHOOSE', replyId: Number(key) });
            }}>
            {(reply) => (
              <ListBoxItem id={reply.id} textValue={`/${reply.short_code} ${reply.title}`}>
                <span className="lc-saved-replies__code">/{reply.short_code}</span> {reply.title}
              </ListBoxItem>
            )}
          </ComboBox>
          {matching.length === 0 && <p className="lc-saved-replies__empty" role="status">No saved reply matches “{query}”.</p>}
          {isFilling && <Spinner size={20} />}
        </>
      )}
      <Button variant="tertiary" onPress={() => picker.send({ type: 'CLOSE' })}>Cancel</Button>
    </section>
  );
}
