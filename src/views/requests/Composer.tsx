import { useSelector } from '@xstate/react';
import { type FormEvent, type KeyboardEvent, Suspense, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { requestThreadMachine } from '../../machines/requestThread.machine.ts';
import { THREAD_TEXT } from '../../machines/requestThread.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { lazyPage } from '../../services/lazyPage.ts';
import type { FileUploaderProps } from '../../widgets/FileUploader.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';

export type RequestThreadActor = ActorRefFrom<typeof requestThreadMachine>;

const ATTACH_LABEL = 'Attach an image or PDF';
/** The uploader (its statechart, drop zone and preview) is the thread's heaviest part: loaded when first wanted. */
const FileUploader = lazyPage<FileUploaderProps>(() => import('../../widgets/FileUploader.tsx').then(({ FileUploader: Uploader }) => ({ default: Uploader })));

/**
 * The message box (SPEC §2 Request, §5 Request messages, §9 one file): text, one optional image or PDF, Send.
 * Send stays disabled while the text is blank and while a file is uploading (which the employee may cancel by
 * removing the file); Ctrl+Enter (⌘+Enter) sends too.
 */
export function Composer({ thread }: { thread: RequestThreadActor }) {
  const requestId = useSelector(thread, (snapshot) => snapshot.context.requestId);
  const draft = useSelector(thread, (snapshot) => snapshot.context.draft);
  const uploadError = useSelector(thread, (snapshot) => snapshot.context.uploadError);
  const sendError = useSelector(thread, (snapshot) => snapshot.context.sendError);
  const isSending = useSelector(thread, (snapshot) => snapshot.hasTag('sending'));
  const canSend = useSelector(thread, (snapshot) => snapshot.can({ type: 'SEND' }));
  const messagesSent = useSelector(thread, (snapshot) => snapshot.context.messagesSent);

  // Until the first press the button stands in for the uploader; hovering or focusing it fetches the uploader's code.
  const [uploaderWanted, setUploaderWanted] = useState(false);
  const [pickerPressed, setPickerPressed] = useState(false);
  const attachStandIn = (
    <Button variant="secondary" isDisabled={isSending} onHoverStart={FileUploader.preload} onFocus={FileUploader.preload}
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
              {/* A new uploader for each message: the one that carried the sent file is emptied with it. */}
              <FileUploader
                key={messagesSent}
                label={ATTACH_LABEL}
                presign={{ requestId }}
                isDisabled={isSending}
                onMountOpenPicker={pickerPressed ? () => setPickerPressed(false) : undefined}
                onBusyChange={(busy) => thread.send({ type: busy ? 'UPLOAD_STARTED' : 'UPLOAD_SETTLED' })}
                onUploaded={({ key, file }) => key && thread.send({ type: 'ATTACHED', key, fileName: file.name })}
                onUploadError={(details) => thread.send({ type: 'UPLOAD_ERROR', ...details })}
                onUploadFailed={(error) => thread.send({ type: 'UPLOAD_FAILED', error })}
                onCleared={() => thread.send({ type: 'ATTACHMENT_CLEARED' })}
              />
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
