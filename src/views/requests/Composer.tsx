import { useSelector } from '@xstate/react';
import { type FormEvent, type KeyboardEvent, Suspense, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { requestThreadMachine } from '../../machines/requestThread.machine.ts';
import { THREAD_TEXT, uploadErrorOf } from '../../machines/requestThread.machine.ts';
import { isUploading } from '../../machines/upload.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { lazyPage } from '../../services/lazyPage.ts';
import { Message } from '../../widgets/Message.tsx';
import type { UploadFieldProps } from '../UploadField.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';

export type RequestThreadActor = ActorRefFrom<typeof requestThreadMachine>;

const ATTACH_LABEL = 'Attach an image or PDF';
/** The uploader (its drop zone and preview) is the thread's heaviest part: loaded when first wanted. */
const UploadField = lazyPage<UploadFieldProps>(() => import('../UploadField.tsx').then(({ UploadField: Field }) => ({ default: Field })));

/**
 * The message box (SPEC §2 Request, §5 Request messages, §9 one file): text, one optional image or PDF, Send.
 * Send stays disabled while the text is blank and while a file is uploading (which the employee may cancel by
 * removing the file); Ctrl+Enter (⌘+Enter) sends too.
 */
export function Composer({ thread }: { thread: RequestThreadActor }) {
  const draft = useSelector(thread, (snapshot) => snapshot.context.draft);
  const upload = useSelector(thread, (snapshot) => snapshot.context.upload);
  const uploadError = useSelector(upload, uploadErrorOf);
  const sendError = useSelector(thread, (snapshot) => snapshot.context.sendError);
  const isSending = useSelector(thread, (snapshot) => snapshot.hasTag('sending'));
  // Send waits for the upload, which the thread's guard reads but the thread's snapshot does not show: selecting it
  // here renders the form again as it starts and ends, and so asks the thread again.
  const isUploadingFile = useSelector(upload, isUploading);
  const canSend = useSelector(thread, (snapshot) => snapshot.can({ type: 'SEND' })) && !isUploadingFile;

  // Until the first press the button stands in for the uploader; hovering or focusing it fetches the uploader's code.
  const [uploaderWanted, setUploaderWanted] = useState(false);
  const [pickerPressed, setPickerPressed] = useState(false);
  const attachStandIn = (
    <Button variant="secondary" isDisabled={isSending} onHoverStart={UploadField.preload} onFocus={UploadField.preload}
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
  const sendOnCtrlEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send(event);
  };

  return (
    <form className="lc-composer" aria-label="Send a message" onSubmit={send} onKeyDown={sendOnCtrlEnter}>
      <TextInput type="textarea" label="Your message" name="message" rows={3} isRequired value={draft}
        onChange={(text) => thread.send({ type: 'DRAFT_CHANGED', text })} className="lc-composer__text" />
      <div className="lc-composer__actions">
        <div className="lc-composer__file">
          {uploaderWanted ? (
            <Suspense fallback={attachStandIn}>
              <UploadField upload={upload} label={ATTACH_LABEL} isDisabled={isSending}
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
      {sendError && <Message severity="error" title={THREAD_TEXT.sendFailed}>{sendError}</Message>}
    </form>
  );
}
