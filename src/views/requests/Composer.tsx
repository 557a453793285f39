import { useSelector } from '@xstate/react';
import { type FormEvent, type KeyboardEvent, Suspense, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { requestThreadMachine } from '../../machines/requestThread.machine.ts';
import { uploadErrorOf } from '../../machines/requestThread.machine.ts';
import { isUploading, uploadedKey } from '../../machines/upload.machine.ts';
import { charactersLeft, charactersLeftText } from '../../services/threadRules.ts';
import { Button } from '../../widgets/Button.tsx';
import { lazyPage } from '../../services/lazyPage.ts';
import { useMediaQuery } from '../../widgets/mediaQuery.ts';
import { Message } from '../../widgets/Message.tsx';
import type { UploadFieldProps } from '../UploadField.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';

export type RequestThreadActor = ActorRefFrom<typeof requestThreadMachine>;

const ATTACH_LABEL = 'Attach an image or PDF';
/** Said under the box where a keyboard's Enter sends (not on touch screens, whose Enter adds a line). */
export const ENTER_SENDS_HINT = 'Enter sends, Shift+Enter adds a line.';
export const FAILED_FIRST_HINT = 'Retry or edit the message that was not sent first.';
/** The uploader (its drop zone and preview) is the thread's heaviest part: loaded when first wanted. */
const UploadField = lazyPage<UploadFieldProps>(() => import('../UploadField.tsx').then(({ UploadField: Field }) => ({ default: Field })));

/**
 * The message box (SPEC §2 Request, §5 Request messages, §9 one file): text, one optional image or PDF, Send. A
 * message is text, a file, or both. Send stays disabled while there is neither, while a file is uploading (which the
 * employee may cancel by removing the file), and while the text is over the limit, which a counter shows as it
 * nears. On a desktop Enter sends and Shift+Enter adds a line; on a touch screen Enter adds a line; Ctrl+Enter
 * (⌘+Enter) sends on both.
 */
export function Composer({ thread }: { thread: RequestThreadActor }) {
  const draft = useSelector(thread, (snapshot) => snapshot.context.draft);
  const upload = useSelector(thread, (snapshot) => snapshot.context.upload);
  const uploadError = useSelector(upload, uploadErrorOf);
  const isSending = useSelector(thread, (snapshot) => snapshot.hasTag('sending'));
  const hasFailedMessage = useSelector(thread, (snapshot) => snapshot.matches({ ready: { composer: 'failed' } }));
  // Send waits for the upload, which the thread's guard reads but the thread's snapshot does not show: selecting it
  // here renders the form again as it starts and ends, and so asks the thread again.
  const isUploadingFile = useSelector(upload, isUploading);
  const hasFile = useSelector(upload, (snapshot) => uploadedKey(snapshot) !== null);
  const canSend = useSelector(thread, (snapshot) => snapshot.can({ type: 'SEND' })) && !isUploadingFile;
  const enterAddsLine = useMediaQuery('(pointer: coarse)');
  const left = charactersLeft(draft);

  // Until the first press the button stands in for the uploader; hovering or focusing it fetches the uploader's code.
  const [uploaderWanted, setUploaderWanted] = useState(false);
  const [pickerPressed, setPickerPressed] = useState(false);
  const attachStandIn = (
    <Button variant="secondary" onHoverStart={UploadField.preload} onFocus={UploadField.preload}
      onPress={() => {
        setPickerPressed(true);
        setUploaderWanted(true);
      }}>
      {ATTACH_LABEL}
    </Button>
  );

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    thread.send({ type: 'SEND' });
  };
  const sendOnEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || !(event.target instanceof HTMLTextAreaElement)) return;
    const sends = event.ctrlKey || event.metaKey || (!enterAddsLine && !event.shiftKey && !event.altKey);
    if (sends) send(event);
  };

  const description = (
    <>
      {hasFailedMessage ? FAILED_FIRST_HINT : !enterAddsLine && ENTER_SENDS_HINT}
      {left !== null && (
        <span className="lc-composer__counter" data-over={left < 0 || undefined}>{' '}{charactersLeftText(left)}</span>
      )}
    </>
  );

  return (
    <form className="lc-composer" aria-label="Send a message" onSubmit={send} onKeyDown={sendOnEnter}>
      <TextInput type="textarea" label="Your message" name="message" rows={2} isRequired={!hasFile} value={draft}
        onChange={(text) => thread.send({ type: 'DRAFT_CHANGED', text })} className="lc-composer__text"
        description={description} />
      <div className="lc-composer__actions">
        <div className="lc-composer__file">
          {uploaderWanted ? (
            <Suspense fallback={attachStandIn}>
              <UploadField upload={upload} label={ATTACH_LABEL}
                onMountOpenPicker={pickerPressed ? () => setPickerPressed(false) : undefined} />
            </Suspense>
          ) : (
            attachStandIn
          )}
        </div>
        <Button type="submit" isDisabled={!canSend && !isSending} isLoading={isSending} className="lc-composer__send">
          Send
        </Button>
      </div>
      {uploadError && <Message severity="error">{uploadError}</Message>}
    </form>
  );
}
