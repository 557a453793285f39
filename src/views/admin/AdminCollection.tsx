import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { AdminCollectionActor, AdminRecord, ListChange } from '../../machines/adminCollection.ts';
import { Button } from '../../widgets/Button.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { ConfirmDialog } from '../../widgets/Dialog.tsx';
import { Form } from '../../widgets/Form.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
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
  send: (event: FormEvent) => void;
  fullScreen?: boolean;
  /** Shown beside the form (the offering's preview). */
  aside?: ReactNode;
  children: ReactNode;
}

type FormEvent = { type: 'SAVE' | 'CANCEL' | 'DISCARD' | 'KEEP_EDITING' };

export interface FormFieldsProps {
  saveLabel: string;
  /** A form that leaves elsewhere (a record's page) has no Cancel of its own. */
  cancelLabel?: string;
  isSaving: boolean;
  formError: string | null;
  send: (event: FormEvent) => void;
  className?: string;
  children: ReactNode;
}

/** A form's fields, its message that names no field, Save and Cancel. */
export function FormFields({ saveLabel, cancelLabel, isSaving, formError, send, className = 'lc-admin-form', children }: FormFieldsProps) {
  return (
    <Form className={className} validationBehavior="aria" onSubmit={(event) => {
      event.preventDefault();
      send({ type: 'SAVE' });
    }}>
      {children}
      {formError && <Message severity="error">{formError}</Message>}
      <div className="lc-admin-actions">
        <Button type="submit" isLoading={isSaving}>{saveLabel}</Button>
        {cancelLabel && <Button variant="secondary" isDisabled={isSaving} onPress={() => send({ type: 'CANCEL' })}>{cancelLabel}</Button>}
      </div>
    </Form>
  );
}

/** Asked before a changed form is left. */
export function DiscardQuestion({ isOpen, unsaved, send }: { isOpen: boolean; unsaved: string; send: (event: FormEvent) => void }) {
  return (
    <ConfirmDialog isOpen={isOpen} title="Discard your changes?" confirmLabel="Discard changes" cancelLabel="Keep editing"
      isConfirming={false} refusal={null} onConfirm={() => send({ type: 'DISCARD' })} onCancel={() => send({ type: 'KEEP_EDITING' })}>
      <p>{unsaved}</p>
    </ConfirmDialog>
  );
}

/** A form in a drawer, for a machine with SAVE, CANCEL and the discard question's DISCARD and KEEP_EDITING. */
export function FormDrawer({ title, saveLabel, unsaved, isSaving, isAskingToDiscard, formError, send, fullScreen, aside, children }: FormDrawerProps) {
  const fields = (
    <FormFields saveLabel={saveLabel} cancelLabel="Cancel" isSaving={isSaving} formError={formError} send={send}
      className={`lc-admin-form${aside ? ' lc-offering-editor__form' : ''}`}>
      {children}
    </FormFields>
  );
  return (
    <Drawer isOpen fullScreen={fullScreen} title={title} onOpenChange={(open) => !open && !isSaving && send({ type: 'CANCEL' })}>
      {aside ? (
        <div className="lc-offering-editor">
          {fields}
          {aside}
        </div>
      ) : (
        fields
      )}
      <DiscardQuestion isOpen={isAskingToDiscard} unsaved={unsaved} send={send} />
    </Drawer>
  );
}

export interface ChangeConfirmationProps<Item> {
  actor: AdminCollectionActor<Item>;
  /** The question's title, its confirming button and its text, for the record changed and the change asked for. */
  ask: (item: Item, change: ListChange) => { title: string; confirmLabel: string; text: ReactNode };
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
  const change = useSelector(actor, (snapshot) => snapshot.context.change);
  if (!item || !change) return null;
  const { title, confirmLabel, text } = ask(item, change);
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
    <UpDownButtons names={[`Move ${name} up`, `Move ${name} down`]} isFirst={position === 0} isLast={position === last}
      isDisabled={isDisabled} onMove={(by) => actor.send({ type: 'MOVE', itemId, by })} />
  );
}

/** Up and Down (shown as `text`), each off at its end; `data-move` lets a moved entry's other button take the focus. */
function UpDownButtons({ names, text = ['Up', 'Down'], isFirst, isLast, isDisabled, onMove }: {
  names: readonly [string, string];
  text?: readonly [string, string];
  isFirst: boolean;
  isLast: boolean;
  isDisabled: boolean;
  onMove: (by: -1 | 1) => void;
}) {
  return ([-1, 1] as const).map((by, place) => (
    <Button key={by} variant="tertiary" data-move={by} aria-label={names[place]} isDisabled={isDisabled || (by < 0 ? isFirst : isLast)}
      onPress={() => onMove(by)}>
      {text[place]}
    </Button>
  ));
}

/** Up, Down and Remove (named `names` to screen readers) for one entry of a form's list: a question, a section, a row. */
export function EntryTools({ names: [up, down, remove], text, index, count, onMove, onRemove, isDisabled = false, canRemove = true, className = 'lc-admin-actions' }: {
  names: readonly [string, string, string];
  text?: readonly [string, string];
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  isDisabled?: boolean;
  /** Off when the list must keep its last entry. */
  canRemove?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <UpDownButtons names={[up, down]} text={text} isFirst={index === 0} isLast={index === count - 1} isDisabled={isDisabled} onMove={onMove} />
      <Button variant="tertiary" aria-label={remove} isDisabled={isDisabled || !canRemove} onPress={onRemove}>Remove</Button>
    </div>
  );
}

/** A row's Edit (or another word, `children`): opens the record's form. */
export function EditButton({ actor, itemId, label, isDisabled = false, isLoading = false, children = 'Edit' }: {
  actor: AdminCollectionActor;
  itemId: number;
  /** The name screen readers hear, naming the record. */
  label: string;
  isDisabled?: boolean;
  isLoading?: boolean;
  children?: ReactNode;
}) {
  return (
    <Button variant="secondary" aria-label={label} isDisabled={isDisabled} isLoading={isLoading} onPress={() => actor.send({ type: 'EDIT', itemId })}>
      {children}
    </Button>
  );
}

export interface AdminTableProps<Item extends AdminRecord> {
  'aria-label'?: string;
  'aria-labelledby'?: string;
  /** The columns' titles, before the rows' actions. */
  columns: readonly string[];
  /** The column that names each row: the first, unless an image comes before it. */
  rowHeader?: number;
  items: Item[];
  /** What the rows show beside their record: they are drawn again when it changes. */
  dependencies?: unknown[];
  /** Said in place of the rows when there are none. */
  empty: ReactNode;
  /** A record's cells, its actions last (ActionsCell). */
  children: (item: Item) => ReactNode;
}

/** An admin list: a row a record, a column of titles and the rows' actions last. */
export function AdminTable<Item extends AdminRecord>({ columns, rowHeader = 0, items, dependencies, empty, children, ...names }: AdminTableProps<Item>) {
  return (
    <Table {...names} className="lc-admin-table">
      <TableHeader>
        {columns.map((title, index) => <Column key={title} isRowHeader={index === rowHeader}>{title}</Column>)}
        <ActionsColumn />
      </TableHeader>
      <TableBody items={items} dependencies={dependencies} renderEmptyState={() => <p className="lc-admin-empty">{empty}</p>}>
        {(item) => <Row id={item.id} className="lc-admin-table__row">{children(item)}</Row>}
      </TableBody>
    </Table>
  );
}

/** The header of a table's last column, the rows' actions: named for screen readers only. */
export function ActionsColumn() {
  return (
    <Column>
      <span className="lc-visually-hidden">Actions</span>
    </Column>
  );
}

/** A row's last cell: its actions (Edit, moves, settings), side by side. */
export function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <Cell>
      <div className="lc-admin-actions">{children}</div>
    </Cell>
  );
}
