import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { AdminCollectionActor, AdminRecord } from '../../machines/adminCollection.ts';
import { Button } from '../../widgets/Button.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { ConfirmDialog } from '../../widgets/Dialog.tsx';
import { Form } from '../../widgets/Form.tsx';
import { AdminListFrame } from './AdminParts.tsx';

/**
 * The parts of every admin collection screen (machines/adminCollection.ts): the list's frame with its main action,
 * the form's drawer with its discard question, the confirmation of a change from the list, and a row's moves.
 */

export interface CollectionFrameProps<Item> {
  actor: AdminCollectionActor<Item>;
  heading: string;
  /** The New button's label, on screens that create records. */
  newLabel?: string;
  children: (items: Item[]) => ReactNode;
}

export function CollectionFrame<Item>({ actor, heading, newLabel, children }: CollectionFrameProps<Item>) {
  const items = useSelector(actor, (snapshot) => snapshot.context.items);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  // A refusal of a confirmed change is shown in its confirmation.
  const refusal = useSelector(actor, (snapshot) => (snapshot.matches('confirming') ? null : snapshot.context.refusal));
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const canCreate = useSelector(actor, (snapshot) => snapshot.matches('list'));
  const isOpeningNew = useSelector(actor, (snapshot) => snapshot.context.opening?.itemId === null);
  const action = newLabel && (
    <Button onPress={() => actor.send({ type: 'NEW' })} isDisabled={!canCreate && !isOpeningNew} isLoading={isOpeningNew}>
      {newLabel}
    </Button>
  );
  return (
    <AdminListFrame heading={heading} isBusy={isBusy} loadError={loadError} onRetry={() => actor.send({ type: 'RETRY' })}
      notice={notice} refusal={refusal} isLoaded={items !== null} action={action}>
      {items && children(items)}
    </AdminListFrame>
  );
}

/** Whether the list takes changes: no form, change or load is under way. */
export function useIsListed(actor: AdminCollectionActor) {
  return useSelector(actor, (snapshot) => snapshot.matches('list'));
}

export interface CollectionFormProps<Draft> {
  actor: AdminCollectionActor<AdminRecord & { name?: string }, Draft>;
  /** What a record is called ('company'): the title, the Save button and the discard question say it. */
  noun: string;
  /** A new record's title, when not 'New <noun>'. */
  newTitle?: string;
  /** The words of a form that sends something new rather than creating a record (an invitation). */
  wording?: { title: string; saveLabel: string; unsaved: string };
  fullScreen?: boolean;
  /** The fields, given the draft, the messages beside them, and how a field changes the draft. */
  children: (draft: Draft, fieldErrors: Record<string, string>, isSaving: boolean, change: (changes: Partial<Draft>) => void) => ReactNode;
  /** Shown beside the form (the offering's preview). */
  aside?: (draft: Draft) => ReactNode;
}

/** The open form in a drawer: its fields, its message, Save and Cancel; leaving it with changes asks first. */
export function CollectionForm<Draft>({ actor, noun, newTitle, wording, fullScreen, children, aside }: CollectionFormProps<Draft>) {
  const form = useSelector(actor, (snapshot) => snapshot.context.form);
  const name = useSelector(actor, (snapshot) => snapshot.context.items?.find((item) => item.id === snapshot.context.form?.itemId)?.name);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const isAskingToDiscard = useSelector(actor, (snapshot) => snapshot.matches('confirmingDiscard'));
  if (!form) return null;
  const words = wording ?? (form.itemId === null
    ? { title: newTitle ?? `New ${noun}`, saveLabel: `Create ${noun}`, unsaved: `This ${noun} has not been created yet.` }
    : { title: `Edit ${name ?? noun}`, saveLabel: 'Save changes', unsaved: `Your changes to this ${noun} have not been saved.` });
  return (
    <FormDrawer {...words} isSaving={isSaving} isAskingToDiscard={isAskingToDiscard}
      formError={formError} send={(event) => actor.send(event)} fullScreen={fullScreen} aside={aside?.(form.draft)}>
      {children(form.draft, fieldErrors, isSaving, (changes) => actor.send({ type: 'CHANGE', changes }))}
    </FormDrawer>
  );
}

export interface FormDrawerProps {
  title: string;
  saveLabel: string;
  /** Why discarding loses something, in the question asked before it. */
  unsaved: string;
  isSaving: boolean;
  isAskingToDiscard: boolean;
  formError: string | null;
  send: (event: { type: 'SAVE' | 'CANCEL' | 'DISCARD' | 'KEEP_EDITING' }) => void;
  fullScreen?: boolean;
  /** Shown beside the form (the offering's preview). */
  aside?: ReactNode;
  children: ReactNode;
}

/** A form in a drawer, for a machine with SAVE, CANCEL and the discard question's DISCARD and KEEP_EDITING. */
export function FormDrawer({ title, saveLabel, unsaved, isSaving, isAskingToDiscard, formError, send, fullScreen, aside, children }: FormDrawerProps) {
  const cancel = () => send({ type: 'CANCEL' });
  const fields = (
    <Form className={`lc-admin-form${aside ? ' lc-offering-editor__form' : ''}`} validationBehavior="aria" onSubmit={(event) => {
      event.preventDefault();
      send({ type: 'SAVE' });
    }}>
      {children}
      {formError && <Message severity="error">{formError}</Message>}
      <div className="lc-admin-actions">
        <Button type="submit" isLoading={isSaving}>{saveLabel}</Button>
        <Button variant="secondary" isDisabled={isSaving} onPress={cancel}>Cancel</Button>
      </div>
    </Form>
  );
  return (
    <Drawer isOpen fullScreen={fullScreen} title={title} onOpenChange={(open) => !open && !isSaving && cancel()}>
      {aside ? (
        <div className="lc-offering-editor">
          {fields}
          {aside}
        </div>
      ) : (
        fields
      )}
      <ConfirmDialog isOpen={isAskingToDiscard} title="Discard your changes?" confirmLabel="Discard changes" cancelLabel="Keep editing"
        isConfirming={false} refusal={null} onConfirm={() => send({ type: 'DISCARD' })} onCancel={() => send({ type: 'KEEP_EDITING' })}>
        <p>{unsaved}</p>
      </ConfirmDialog>
    </Drawer>
  );
}

export interface ChangeConfirmationProps<Item> {
  actor: AdminCollectionActor<Item>;
  /** The question's title, its confirming button and its text, for the record changed. */
  ask: (item: Item) => { title: string; confirmLabel: string; text: ReactNode };
}

/** Asks before a change from the list that the screen confirms (a deactivation); a refusal is shown in it. */
export function ChangeConfirmation<Item extends AdminRecord>({ actor, ask }: ChangeConfirmationProps<Item>) {
  const item = useSelector(actor, (snapshot) =>
    snapshot.matches('confirming') || snapshot.matches('changing')
      ? snapshot.context.items?.find((candidate) => candidate.id === snapshot.context.change?.itemId)
      : undefined,
  );
  const refusal = useSelector(actor, (snapshot) => snapshot.context.refusal);
  const isChanging = useSelector(actor, (snapshot) => snapshot.matches('changing'));
  if (!item) return null;
  const { title, confirmLabel, text } = ask(item);
  return (
    <ConfirmDialog isOpen title={title} confirmLabel={confirmLabel} isConfirming={isChanging} refusal={refusal}
      onConfirm={() => actor.send({ type: 'CONFIRM' })} onCancel={() => actor.send({ type: 'CANCEL' })}>
      {text}
    </ConfirmDialog>
  );
}

export interface MoveButtonsProps {
  actor: AdminCollectionActor;
  itemId: number;
  name: string;
  position: number;
  last: number;
  isDisabled: boolean;
}

/** A row's Up and Down. */
export function MoveButtons({ actor, itemId, name, position, last, isDisabled }: MoveButtonsProps) {
  return (
    <>
      <Button variant="tertiary" aria-label={`Move ${name} up`} isDisabled={isDisabled || position === 0}
        onPress={() => actor.send({ type: 'MOVE', itemId, by: -1 })}>
        Up
      </Button>
      <Button variant="tertiary" aria-label={`Move ${name} down`} isDisabled={isDisabled || position === last}
        onPress={() => actor.send({ type: 'MOVE', itemId, by: 1 })}>
        Down
      </Button>
    </>
  );
}
