import type { ActorRefFrom } from 'xstate';
import { PLACEHOLDERS, type SavedReply, type SavedReplyRequest } from '../../contract/assignment.ts';
import type { adminSavedRepliesMachine } from '../../machines/adminSavedReplies.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, ChangeConfirmation, CollectionForm, CollectionFrame, EditButton, useIsListed } from './AdminCollection.tsx';

export type AdminSavedRepliesActor = ActorRefFrom<typeof adminSavedRepliesMachine>;

export const PLACEHOLDER_HINT = `Markdown. Placeholders filled in for each request: ${PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}.`;

/** Saved replies: the team's templates by short code, the form to write or edit one, archiving and restoring. */
export function AdminSavedRepliesView({ replies: actor }: { replies: AdminSavedRepliesActor }) {
  const canChange = useIsListed(actor);
  return (
    <CollectionFrame actor={actor} heading="Saved replies" newLabel="New saved reply">
      {(replies) => (
        <>
          <SavedRepliesTable replies={replies} actor={actor} canChange={canChange} />
          <SavedReplyForm actor={actor} />
          <ChangeConfirmation actor={actor} ask={(reply) => {
            const verb = reply.active ? 'Archive' : 'Restore';
            const text = reply.active
              ? 'Concierges no longer find it in the composer. Replies already sent stay as they are; restoring it offers it again.'
              : 'Concierges find it in the composer again.';
            return { title: `${verb} /${reply.short_code}?`, confirmLabel: verb, text: <p>{text}</p> };
          }} />
        </>
      )}
    </CollectionFrame>
  );
}

function SavedRepliesTable({ replies, actor, canChange }: { replies: SavedReply[]; actor: AdminSavedRepliesActor; canChange: boolean }) {
  return (
    <AdminTable aria-label="Saved replies" columns={['Short code', 'Title', 'Status']} items={replies} dependencies={[canChange]} empty="No saved replies yet. Write the first one.">
      {(reply) => (
        <>
          <Cell>
            <span className="lc-admin-table__name">/{reply.short_code}</span>
          </Cell>
          <Cell>{reply.title}</Cell>
          <Cell>{reply.active ? 'In use' : 'Archived'}</Cell>
          <ActionsCell>
            <EditButton actor={actor} itemId={reply.id} label={`Edit /${reply.short_code}`} isDisabled={!canChange} />
            <Button variant="tertiary" aria-label={`${reply.active ? 'Archive' : 'Restore'} /${reply.short_code}`} isDisabled={!canChange}
              onPress={() => actor.send({ type: 'SET', itemId: reply.id, setting: { field: 'active', value: !reply.active } })}>
              {reply.active ? 'Archive' : 'Restore'}
            </Button>
          </ActionsCell>
        </>
      )}
    </AdminTable>
  );
}

function SavedReplyForm({ actor }: { actor: AdminSavedRepliesActor }) {
  return (
    <CollectionForm<SavedReplyRequest> actor={actor} noun="saved reply">
      {(draft, fieldErrors, _isSaving, change) => (
        <>
          <TextInput label="Title" isRequired value={draft.title} onChange={(title) => change({ title })} errorMessage={fieldErrors.title}
            description="What concierges see in the composer's list." />
          <TextInput label="Short code" isRequired value={draft.short_code} onChange={(code) => change({ short_code: code })}
            errorMessage={fieldErrors.short_code} description="Typed after / in the composer, e.g. welcome." />
          <TextInput label="Reply" type="textarea" rows={8} isRequired value={draft.body_markdown}
            onChange={(body) => change({ body_markdown: body })} errorMessage={fieldErrors.body_markdown} description={PLACEHOLDER_HINT} />
        </>
      )}
    </CollectionForm>
  );
}
