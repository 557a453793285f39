import { useSelector } from '@xstate/react';
import { type KeyboardEvent, useRef } from 'react';
import { useFlow } from '../../machines/appSystem.tsx';
import { type Composer, composerText } from '../../machines/consoleRequest.machine.ts';
import { savedReplyPickerMachine, withReplyInserted } from '../../machines/savedReplyPicker.machine.ts';
import { SavedReplyPicker } from './SavedReplyPicker.tsx';
import { isUploading } from '../../machines/upload.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Form } from '../../widgets/Form.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Spinner } from '../../widgets/Spinner.tsx';
import { Tab, TabGroup, TabList, TabPanel } from '../../widgets/Tabs.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import type { ConsoleRequestActor } from './ConsoleRequestView.tsx';
import { UploadField } from '../UploadField.tsx';
import { INTERNAL_NOTE_LABEL } from './ConsoleThread.tsx';

const MARKDOWN_HINT = 'Markdown: **bold**, _italic_, - lists, [link text](https://…). Ctrl+Enter sends.';

const COMPOSERS: Record<Composer, { tab: string; field: string; submit: string }> = {
  reply: { tab: 'Reply to employee', field: 'Reply', submit: 'Send reply' },
  note: { tab: 'Internal note', field: 'Note', submit: 'Add note' },
};

/** A reply the employee sees (with one optional file) or an internal note, in Markdown with a preview. */
export function ConsoleComposer({ request }: { request: ConsoleRequestActor }) {
  const composer = useSelector(request, (snapshot) => snapshot.context.composer);
  return (
    <section className="lc-console-composer" aria-label="Write">
      <TabGroup
        selectedKey={composer}
        onSelectionChange={(key) => request.send({ type: 'SELECT_COMPOSER', composer: key as Composer })}
      >
        <TabList aria-label="Write">
          {(Object.keys(COMPOSERS) as Composer[]).map((kind) => (
            <Tab key={kind} id={kind}>
              {COMPOSERS[kind].tab}
            </Tab>
          ))}
        </TabList>
        {/* The reply stays mounted behind the note tab, so it is as it was left on the way back. */}
        <TabPanel id="reply" shouldForceMount>
          <ComposerForm request={request} kind="reply" />
        </TabPanel>
        <TabPanel id="note">
          <ComposerForm request={request} kind="note" />
        </TabPanel>
      </TabGroup>
    </section>
  );
}

function ComposerForm({ request, kind }: { request: ConsoleRequestActor; kind: Composer }) {
  const text = useSelector(request, ({ context }) => (kind === 'reply' ? context.replyText : context.noteText));
  const isActive = useSelector(request, ({ context }) => context.composer === kind);
  const mode = useSelector(request, (snapshot) => {
    if (snapshot.matches({ loaded: { composer: 'previewing' } })) return 'previewing';
    if (snapshot.matches({ loaded: { composer: 'showingPreview' } })) return 'preview';
    return 'writing';
  });
  const isSending = useSelector(request, (snapshot) => snapshot.matches({ loaded: { activity: 'sending' } }));
  const upload = useSelector(request, ({ context }) => context.upload);
  // The reply goes with its file, so it waits while the file uploads; a note carries no file.
  const waitsForFile = useSelector(upload, isUploading) && kind === 'reply';
  const previewHtml = useSelector(request, ({ context }) => context.previewHtml);
  const previewError = useSelector(request, ({ context }) => context.previewError);
  const sendError = useSelector(request, ({ context }) => context.sendError);
  const labels = COMPOSERS[kind];
  const requestId = useSelector(request, ({ context }) => context.requestId);
  // A part of this composer, living and ending with it, as a flow of the app's system (the inspector shows it).
  const savedReplies = useFlow(savedReplyPickerMachine, { id: `savedReplyPicker-${kind}`, input: { requestId } });
  const editorRef = useRef<HTMLDivElement>(null);
  const hasText = text.trim().length > 0;
  // Only the active composer shows a preview or an error; the hidden reply keeps its text and file.
  const shownMode = isActive ? mode : 'writing';

  const sendOnCtrlEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      request.send({ type: 'SEND' });
    }
  };

  return (
    <Form
      className="lc-console-composer__form"
      onSubmit={(event) => {
        event.preventDefault();
        request.send({ type: 'SEND' });
      }}
    >
      {kind === 'note' && <p className="lc-console-composer__note-warning">{INTERNAL_NOTE_LABEL}</p>}
      {shownMode === 'writing' ? (
        <div onKeyDown={sendOnCtrlEnter} ref={editorRef}>
          <TextInput
            type="textarea"
            label={`${labels.field} (Markdown)`}
            isRequired
            rows={5}
            value={text}
            isDisabled={isSending}
            description={MARKDOWN_HINT}
            onChange={(value) => {
              savedReplies.send({ type: 'TYPED', before: text, after: value });
              request.send({ type: 'EDIT', text: value });
            }}
          />
          <SavedReplyPicker picker={savedReplies} returnFocusTo={editorRef}
            onInsert={(reply) => request.send({ type: 'EDIT', text: withReplyInserted(composerText(request.getSnapshot().context), reply) })} />
        </div>
      ) : (
        <section className="lc-console-preview" aria-label="Preview" aria-live="polite">
          <p className="lc-field__label" aria-hidden="true">Preview</p>
          {shownMode === 'previewing' && <Spinner />}
          {previewError && <Message severity="warning">{previewError}</Message>}
          {previewHtml !== null && (
            // Rendered by the server from the Markdown and sanitised there (the same HTML the reply is stored as).
            <div className="lc-console-preview__body lc-console-entry__body" dangerouslySetInnerHTML={{ __html: previewHtml }} />
          )}
        </section>
      )}

      {kind === 'reply' && <UploadField upload={upload} label="Attach a file" isDisabled={isSending} />}

      {isActive && sendError && <Message severity="error">{sendError}</Message>}

      <div className="lc-console-composer__actions">
        {shownMode === 'writing' ? (
          <Button variant="tertiary" isDisabled={!hasText || isSending} onPress={() => request.send({ type: 'SHOW_PREVIEW' })}>
            Preview
          </Button>
        ) : (
          <Button variant="tertiary" onPress={() => request.send({ type: 'SHOW_EDITOR' })}>
            Edit
          </Button>
        )}
        {waitsForFile && <span className="lc-console-composer__hint">Uploading…</span>}
        <Button type="submit" isLoading={isSending} isDisabled={!hasText || waitsForFile}>
          {labels.submit}
        </Button>
      </div>
    </Form>
  );
}
