import { THREAD_TEXT } from '../../machines/requestThread.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { ThreadStart } from './ThreadStart.tsx';

/** Issue 31: what a long thread has above the messages shown. */
export type OlderMessagesState = 'none' | 'more' | 'loading' | 'failed';

/**
 * Above a long thread's messages: the start of what is loaded (reaching it loads the page before), the page on its
 * way, or why it did not come with a button to try again. Nothing once the thread's start is shown.
 */
export function OlderMessagesHeader({ state, onLoadOlder }: { state: OlderMessagesState; onLoadOlder: () => void }) {
  if (state === 'none') return null;
  return (
    <div className="lc-thread__older">
      {state === 'more' && <ThreadStart onReached={onLoadOlder} />}
      <p role="status" className="lc-thread__older-status">{state === 'loading' ? THREAD_TEXT.loadingOlder : ''}</p>
      {state === 'failed' && (
        <>
          <Message severity="error">{THREAD_TEXT.olderFailed}</Message>
          <Button variant="secondary" onPress={onLoadOlder}>{THREAD_TEXT.loadOlder}</Button>
        </>
      )}
    </div>
  );
}
