import {
  type ActorRef,
  type AnyActorLogic,
  type AnyActorRef,
  type DoneActorEvent,
  type Snapshot,
  assertEvent,
  assign,
  enqueueActions,
  fromPromise,
  setup,
  stopChild,
} from 'xstate';
import { navigate } from '../services/navigation.ts';
import { type FieldErrors, errorOf, failureOf, fieldErrorsOfIssues, refusalOf, withoutErrorsFor } from './adminForms.ts';
import { type UploadActor, type UploadReport, isUploading, uploadMachine } from './upload.machine.ts';

export interface AdminRecord {
  id: number;
}

/** A contract schema, as the form checks a draft with it before sending it. */
export interface ContractSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

/** The open form: which record it is for (null while creating one), the draft as typed and as it opened. */
export interface CollectionForm<Draft, Item = unknown> {
  itemId: number | null;
  /** The record as the form opened it, or as last saved on a record's page. */
  record: Item | null;
  draft: Draft;
  /** Leaving a form whose draft differs from it asks first. */
  openedDraft: Draft;
  /** The record's image as it is now, shown until the form removes or replaces it (forms with an image). */
  imageUrl: string | null;
}

/** A change made from the list: a move to a new (0-based) place, or a setting such as active or published. */
export interface ListChange {
  itemId: number;
  field: string;
  value: unknown;
}

export interface AdminCollectionContext<Item, Draft, Choices, Filter = unknown> {
  items: Item[] | null;
  /** Which records the list shows, on screens that filter it. */
  filter: Filter | null;
  loadError: string | null;
  /** The record whose form is being opened (null: a new one), on screens whose form loads what it offers. */
  opening: { itemId: number | null } | null;
  form: CollectionForm<Draft, Item> | null;
  /** What the open form offers to choose from, on screens whose form loads it. */
  choices: Choices | null;
  /** The form's image uploader, while the form is open. */
  upload: UploadActor | null;
  /** The change from the list that awaits confirmation or is being sent. */
  change: ListChange | null;
  fieldErrors: FieldErrors;
  /** The form's message that names no field. */
  formError: string | null;
  /** What the last change did, e.g. 'Acme saved.'. */
  notice: string | null;
  /** Why the last change from the list, or the form's opening, failed: above the list, or in the confirmation. */
  refusal: string | null;
  /** What the form's last own edit did, for screen readers (e.g. 'Question 3 moved up to 2.'). */
  announcement: string | null;
  /** The draft run as what it makes (the survey conversation of a template's questions), on forms with a preview. */
  preview: AnyActorRef | null;
}

/** A record's page (the questions of a template) is opened with the record: null, a new one. */
export interface RecordPageInput {
  itemId: number | null;
}

/** A setting changed from the list: `{ field: 'active'; value: boolean }`, the screen's union of them. */
export interface Setting {
  field: string;
  value: unknown;
}

export type AdminCollectionEvent<Draft, S extends Setting = Setting, Edit = never, Filter = never> =
  | { type: 'RETRY' }
  | { type: 'FILTER'; filter: Filter }
  | { type: 'NEW' }
  | { type: 'EDIT'; itemId: number }
  | { type: 'MOVE'; itemId: number; by: -1 | 1 }
  | { type: 'SET'; itemId: number; setting: S }
  | { type: 'CONFIRM' }
  | { type: 'CHANGE'; changes: Partial<Draft> }
  /** From the form's image uploader. */
  | UploadReport
  | { type: 'SAVE' }
  | { type: 'CANCEL' }
  | { type: 'DISCARD' }
  | { type: 'KEEP_EDITING' }
  /** The form's own edits (the offering's sections). */
  | { type: 'EDIT_DRAFT'; edit: Edit }
  | { type: 'PREVIEW' }
  | { type: 'RESTART_PREVIEW' }
  | { type: 'CLOSE_PREVIEW' };

/** What the generic views read of a collection screen's actor. */
export type AdminCollectionActor<Item = AdminRecord, Draft = object, Choices = unknown, Edit = never> = ActorRef<
  Snapshot<unknown> & {
    context: AdminCollectionContext<Item, Draft, Choices>;
    matches(state: 'list' | 'editing' | 'saving' | 'confirming' | 'confirmingDiscard' | 'changing' | 'opening' | 'previewing'): boolean;
    hasTag(tag: 'busy'): boolean;
  },
  // The events every screen accepts, and its form's own edits (its settings are its own).
  AdminCollectionEvent<Draft, never, Edit>
>;

interface SettingConfig<Item, Value> {
  call: (itemId: number, value: Value) => Promise<Item>;
  /** Asks before sending (a deactivation): a refusal is then shown in the confirmation, else above the list. */
  confirms?: boolean;
  notice: (item: Item) => string;
}

/**
 * How the list is ordered: by a text (as the server sorts it), by the records' places (in groups, e.g. by type), or as
 * the server listed it (a changed record stays in its place, a new one comes last).
 */
export type CollectionOrder<Item> =
  | { byText: (item: Item) => string }
  | { asListed: true }
  | { ranked: true; groups?: { of: (item: Item) => string; order: readonly string[] } };

export interface AdminCollectionConfig<
  Id extends string,
  Item extends AdminRecord,
  Draft extends object,
  Request,
  Opened extends Item = Item,
  Choices = null,
  S extends Setting = never,
  Edit = never,
  Filter = never,
> {
  id: Id;
  /** The filter the list opens with, on screens whose list is filtered (FILTER). */
  filter?: Filter;
  loadError: string;
  /** The records (every screen but a record's page). */
  list?: () => Promise<Item[]>;
  /** The list's order (default: as listed). */
  order?: CollectionOrder<Item>;
  /**
   * A record's page rather than a list (a template's questions): it opens the form of the record its input names
   * (open.call), stays on it after a save (a record created there gets the page's address of its own), and leaving it
   * goes `back`.
   */
  page?: { back: string; addressOf: (item: Item) => string };
  /** The record's name in notices ('Acme saved.'). */
  nameOf: (item: Item) => string;
  form: {
    /** A new record's draft: the screen offers NEW. */
    empty?: Draft;
    /** An existing record's draft: the screen offers EDIT. */
    draftOf?: (item: Opened) => Draft;
    /** The contract's schema for a new record (isNew) or an edit, and the request a draft makes. */
    schema: (isNew: boolean) => ContractSchema;
    requestOf: (draft: Draft, isNew: boolean) => Request;
    create?: (request: Request) => Promise<Item>;
    update?: (itemId: number, request: Request) => Promise<Item>;
    /** The messages as the form shows them beside its fields, from the schema's or the server's. */
    messagesOf?: (errors: FieldErrors, draft: Draft) => FieldErrors;
    /** What the save tells, given the record as it was (default: '<name> saved.'). */
    savedNotice?: (item: Item, before: Item | null) => string;
    /** The draft with the changes typed (default: merged), and the messages they withdraw (default: the fields'). */
    changed?: (draft: Draft, changes: Partial<Draft>) => Draft;
    stalePaths?: (changes: Partial<Draft>) => string[];
    /** The form's own edits (the offering's sections): the new draft, the messages it withdraws, what it did. */
    edit?: (draft: Draft, edit: Edit) => { draft: Draft; stale: string[]; announcement?: string };
    /** An image uploaded in the form: the draft's field for its key, and the message while it still uploads. */
    image?: { keyField: keyof Draft & string; stillUploading: string; urlOf: (item: Item) => string | null };
    /** A form that loads the record and what it offers before it opens. */
    open?: {
      call: (itemId: number | null) => Promise<{ item: Opened | null; choices: Choices }>;
      loadError: string;
      /** Only a new record's form loads first (what it offers is for creating); a listed record's opens at once. */
      forNewOnly?: boolean;
    };
    /**
     * The draft run as what it makes, a child actor (the employee conversation of a template's questions): started
     * once the schema takes the draft's request; the draft waits, unchanged, until the preview is closed.
     */
    preview?: { schema: ContractSchema; requestOf: (draft: Draft) => unknown; start: (form: CollectionForm<Draft, Item>) => { logic: AnyActorLogic; input: unknown } };
  };
  /** Moves up and down the list (its order must be ranked). */
  move?: (itemId: number, position: number) => Promise<Item>;
  settings?: { [F in S['field']]: SettingConfig<Item, Extract<S, { field: F }>['value']> };
}

/**
 * The server numbers a list's places with gaps until a move renumbers it, so the screens hold each record's rank
 * (0, 1, 2... in the server's order) as its position: the ends of the list and a move's target are ranks.
 */
function ranked<T extends { position: number }>(list: readonly T[]): T[] {
  return list.map((entry, position) => ({ ...entry, position }));
}

/**
 * An ordered list with `changed` in it: at `rank` when given (after a move, the server's renumbered place), or else
 * where it was, or last when it is new.
 */
function placedInOrder<T extends { id: number; position: number }>(list: readonly T[], changed: T, rank?: number): T[] {
  const at = rank ?? list.findIndex((entry) => entry.id === changed.id);
  const others = list.filter((entry) => entry.id !== changed.id);
  others.splice(at < 0 ? others.length : at, 0, changed);
  return ranked(others);
}

type Ranked = AdminRecord & { position: number };

function orderedOf<Item extends AdminRecord>(order: CollectionOrder<Item>, list: readonly Item[]): Item[] {
  if ('asListed' in order) return [...list];
  if ('byText' in order) return [...list].sort((a, b) => order.byText(a).localeCompare(order.byText(b)));
  const rank = (group: readonly Item[]) => ranked(group as unknown as Ranked[]) as unknown as Item[];
  const { groups } = order;
  return groups ? groups.order.flatMap((key) => rank(list.filter((item) => groups.of(item) === key))) : rank(list);
}

function placed<Item extends AdminRecord>(order: CollectionOrder<Item>, list: readonly Item[], changed: Item, rank?: number): Item[] {
  if ('byText' in order) return orderedOf(order, [...list.filter((item) => item.id !== changed.id), changed]);
  if ('asListed' in order) {
    return list.some((item) => item.id === changed.id) ? list.map((item) => (item.id === changed.id ? changed : item)) : [...list, changed];
  }
  const place = (group: readonly Item[]) => placedInOrder(group as unknown as Ranked[], changed as unknown as Ranked, rank) as unknown as Item[];
  const { groups } = order;
  if (!groups) return place(list);
  return groups.order.flatMap((key) => {
    const group = list.filter((item) => groups.of(item) === key);
    return key === groups.of(changed) ? place(group) : group;
  });
}

/** The records a record moves among: its group's. */
function peersOf<Item extends AdminRecord>(order: CollectionOrder<Item>, list: readonly Item[], item: Item): Item[] {
  const groups = 'ranked' in order ? order.groups : undefined;
  return groups ? list.filter((other) => groups.of(other) === groups.of(item)) : [...list];
}

const positionOf = (item: AdminRecord | undefined) => (item as Ranked | undefined)?.position ?? -1;

/** The form's image uploader, a child actor from the form's opening to its closing: images are presigned without a request. */
const IMAGE_UPLOAD = { id: 'upload', input: { presign: {} } } as const;

/**
 * The statechart of an admin collection screen (companies, staff, offerings...): the list, its load failure and
 * retry; a form to create or edit a record, checked with the contract's schema before it is sent, that keeps what was
 * typed when the server refuses it and shows each message beside the field it names, and asks before discarding
 * unsaved changes; where the screen has them, an image uploaded in the form (a child actor, IMAGE_UPLOAD), moves up
 * and down the list, and settings changed from the list (activation, publishing, a role), some after a confirmation.
 */
// The type parameters are AdminCollectionConfig's, inferred from the screen's configuration.
export function adminCollectionMachine<
  Id extends string, Item extends AdminRecord, Draft extends object, Request, Opened extends Item = Item, Choices = null, S extends Setting = never, Edit = never, Filter = never,
>(screen: AdminCollectionConfig<Id, Item, Draft, Request, Opened, Choices, S, Edit, Filter>) {
  type Context = AdminCollectionContext<Item, Draft, Choices, Filter>;
  type Event = AdminCollectionEvent<Draft, S, Edit, Filter>;
  const { form: formConfig, settings = {} as Record<string, SettingConfig<Item, unknown>>, order = { asListed: true }, page } = screen;
  const settingOf = (field: string) => (settings as Record<string, SettingConfig<Item, unknown>>)[field];
  const { image, open, preview } = formConfig;
  const opensExisting = open !== undefined && !open.forNewOnly;
  const confirmsSome = Object.values(settings as Record<string, SettingConfig<Item, unknown>>).some((setting) => setting.confirms);

  const errorsOf = (schema: ContractSchema, request: unknown): FieldErrors => {
    const checked = schema.safeParse(request);
    return checked.success || !checked.error ? {} : fieldErrorsOfIssues(checked.error.issues);
  };
  const check = (form: CollectionForm<Draft, Item>): FieldErrors => {
    const isNew = form.itemId === null;
    return errorsOf(formConfig.schema(isNew), formConfig.requestOf(form.draft, isNew));
  };
  const checkPreview = (form: CollectionForm<Draft, Item>): FieldErrors => (preview ? errorsOf(preview.schema, preview.requestOf(form.draft)) : {});
  const shown = (errors: FieldErrors, form: CollectionForm<Draft, Item> | null) =>
    form && formConfig.messagesOf ? formConfig.messagesOf(errors, form.draft) : errors;
  const formOf = (item: Opened | null): CollectionForm<Draft, Item> => {
    const draft = item && formConfig.draftOf ? formConfig.draftOf(item) : (formConfig.empty as Draft);
    return { itemId: item?.id ?? null, record: item, draft, openedDraft: draft, imageUrl: item && image ? image.urlOf(item) : null };
  };
  const find = (context: Context, itemId: number) => context.items?.find((item) => item.id === itemId);
  const opened = { fieldErrors: {}, formError: null, notice: null, refusal: null, announcement: null };
  /** Leaving the form: back to the list, or away from a record's page. */
  const leaving = page ? { target: 'left', actions: 'leavePage' as const } : { target: 'list', actions: 'closeForm' as const };
  const leavingForm = [{ guard: 'hasUnsavedChanges' as const, target: 'confirmingDiscard' }, leaving];
  const savedOnPage = [
    { guard: 'isCreating' as const, target: 'editing', actions: ['storeSavedRecord' as const, 'showRecordAddress' as const] },
    { target: 'editing', actions: 'storeSavedRecord' as const },
  ];
  /** The form's message once the upload it asked to wait for has ended: there is nothing to wait for. */
  const withoutWaitMessage = (formError: string | null) => (formError === image?.stillUploading ? null : formError);

  return setup({
    types: {
      context: {} as Context,
      events: {} as Event,
      input: {} as RecordPageInput | undefined,
    },
    actors: {
      upload: uploadMachine,
      list: fromPromise<Item[]>(() => screen.list?.() ?? Promise.reject(new Error(`${screen.id} lists nothing`))),
      open: fromPromise<{ item: Opened | null; choices: Choices }, { itemId: number | null }>(({ input }) =>
        open ? open.call(input.itemId) : Promise.reject(new Error(`${screen.id} opens no form`)),
      ),
      save: fromPromise<Item, CollectionForm<Draft, Item>>(({ input }) => {
        const request = formConfig.requestOf(input.draft, input.itemId === null);
        if (input.itemId === null) return formConfig.create?.(request) ?? Promise.reject(new Error(`${screen.id} creates nothing`));
        return formConfig.update?.(input.itemId, request) ?? Promise.reject(new Error(`${screen.id} edits nothing`));
      }),
      change: fromPromise<Item, ListChange>(({ input }) =>
        input.field === 'position' && screen.move
          ? screen.move(input.itemId, input.value as number)
          : (settingOf(input.field)?.call(input.itemId, input.value) ?? Promise.reject(new Error(`No setting ${input.field}`))),
      ),
    },
    guards: {
      isValid: ({ context }) => context.form !== null && Object.keys(check(context.form)).length === 0,
      canPreview: ({ context }) => context.form !== null && Object.keys(checkPreview(context.form)).length === 0,
      isCreating: ({ context }) => context.form?.itemId === null,
      isUploadingImage: ({ context }) => context.upload !== null && isUploading(context.upload.getSnapshot()),
      hasUnsavedChanges: ({ context }) =>
        context.form !== null && JSON.stringify(context.form.draft) !== JSON.stringify(context.form.openedDraft),
      canMove: ({ context, event }) => {
        assertEvent(event, 'MOVE');
        const item = find(context, event.itemId);
        const position = positionOf(item) + event.by;
        return item !== undefined && position >= 0 && position < peersOf(order, context.items ?? [], item).length;
      },
      isNewSetting: ({ context, event }) => {
        assertEvent(event, 'SET');
        const item = find(context, event.itemId) as Record<string, unknown> | undefined;
        return item !== undefined && item[event.setting.field] !== event.setting.value;
      },
      confirms: ({ event }) => event.type === 'SET' && settingOf(event.setting.field)?.confirms === true,
      changeConfirms: ({ context }) => context.change !== null && settingOf(context.change.field)?.confirms === true,
    },
    actions: {
      storeItems: assign(({ event }) => ({ items: orderedOf(order, (event as unknown as DoneActorEvent<Item[]>).output), loadError: null })),
      clearLoadError: assign({ loadError: null }),
      filter: assign(({ event }) => {
        assertEvent(event, 'FILTER');
        return { filter: event.filter, notice: null };
      }),
      showLoadError: assign({ loadError: screen.loadError }),
      openNew: assign(open ? { opening: { itemId: null }, notice: null, refusal: null } : { form: formOf(null), ...opened }),
      openExisting: assign(({ context, event }) => {
        assertEvent(event, 'EDIT');
        if (opensExisting) return { opening: { itemId: event.itemId }, notice: null, refusal: null };
        const item = find(context, event.itemId);
        return item ? { form: formOf(item as Opened), ...opened } : {};
      }),
      showOpened: assign(({ event }) => {
        const loaded = (event as unknown as DoneActorEvent<{ item: Opened | null; choices: Choices }>).output;
        return { form: formOf(loaded.item), choices: loaded.choices, opening: null, fieldErrors: {}, formError: null };
      }),
      showOpenFailure: assign({ opening: null, refusal: open?.loadError ?? null }),
      change: assign(({ context, event }) => {
        assertEvent(event, 'CHANGE');
        if (!context.form) return {};
        const { draft } = context.form;
        const changes = event.changes;
        const form = {
          ...context.form,
          draft: formConfig.changed ? formConfig.changed(draft, changes) : { ...draft, ...changes },
          // An image removed from the draft is no longer shown.
          imageUrl: image && image.keyField in changes ? null : context.form.imageUrl,
        };
        // A field the user changes no longer carries the message about its old value.
        const stale = formConfig.stalePaths ? formConfig.stalePaths(changes) : Object.keys(changes);
        return { form, fieldErrors: withoutErrorsFor(context.fieldErrors, stale) };
      }),
      edit: assign(({ context, event }) => {
        assertEvent(event, 'EDIT_DRAFT');
        if (!context.form || !formConfig.edit) return {};
        const { draft, stale, announcement = context.announcement } = formConfig.edit(context.form.draft, event.edit);
        return { form: { ...context.form, draft }, fieldErrors: withoutErrorsFor(context.fieldErrors, stale), notice: null, announcement };
      }),
      startImageUpload: assign({ upload: ({ spawn }) => spawn('upload', IMAGE_UPLOAD) }),
      stopImageUpload: enqueueActions(({ enqueue }) => {
        enqueue.stopChild(IMAGE_UPLOAD.id);
        enqueue.assign({ upload: null });
      }),
      askToWaitForImage: assign({ formError: image?.stillUploading ?? null }),
      // The uploaded image replaces the former one; its field's message, and a request to wait for it, are withdrawn.
      takeImage: assign(({ context, event }) => {
        assertEvent(event, 'UPLOADED');
        if (!context.form || !image) return {};
        return {
          form: { ...context.form, draft: { ...context.form.draft, [image.keyField]: event.key }, imageUrl: null },
          fieldErrors: withoutErrorsFor(context.fieldErrors, [image.keyField]),
          formError: withoutWaitMessage(context.formError),
        };
      }),
      stopWaitingForImage: assign(({ context }) => ({ formError: withoutWaitMessage(context.formError) })),
      forgetImage: assign(({ context }) => {
        if (!context.form || !image) return {};
        const draft = { ...context.form.draft, [image.keyField]: null };
        return { form: { ...context.form, draft }, fieldErrors: withoutErrorsFor(context.fieldErrors, [image.keyField]) };
      }),
      showInvalidFields: assign(({ context }) => ({ fieldErrors: context.form ? shown(check(context.form), context.form) : {}, formError: null })),
      showUnpreviewable: assign(({ context }) => ({ fieldErrors: context.form ? shown(checkPreview(context.form), context.form) : {}, formError: null })),
      clearErrors: assign({ fieldErrors: {}, formError: null }),
      showSaveFailure: assign(({ context }, error: unknown) => {
        const { fieldErrors, formError } = failureOf(error);
        return { fieldErrors: shown(fieldErrors, context.form), formError };
      }),
      storeSaved: assign(({ context, event }) => {
        const item = (event as unknown as DoneActorEvent<Item>).output;
        return {
          items: placed(order, context.items ?? [], item),
          form: null,
          choices: null,
          notice: formConfig.savedNotice ? formConfig.savedNotice(item, context.form?.record ?? null) : `${screen.nameOf(item)} saved.`,
        };
      }),
      /** On a record's page, the form stays open on the record saved. */
      storeSavedRecord: assign(({ context, event }) => {
        const item = (event as unknown as DoneActorEvent<Item>).output;
        const before = context.form?.record ?? null;
        const notice = formConfig.savedNotice ? formConfig.savedNotice(item, before) : `${screen.nameOf(item)} saved.`;
        return { form: formOf(item as Opened), notice, announcement: null };
      }),
      /** A record created on its page has an address of its own: reloading the page edits it, rather than creating another. */
      showRecordAddress: ({ event }) => page && navigate(page.addressOf((event as unknown as DoneActorEvent<Item>).output), { replace: true }),
      leavePage: () => page && navigate(page.back),
      startPreview: assign(({ context, spawn }) => {
        if (!context.form || !preview) return {};
        // Each preview runs its own logic, on the draft of the moment.
        const { logic, input } = preview.start(context.form);
        return { preview: spawn(logic, { input }) };
      }),
      stopPreview: stopChild(({ context }) => context.preview ?? ''),
      forgetPreview: assign({ preview: null }),
      closeForm: assign({ form: null, choices: null, fieldErrors: {}, formError: null }),
      startMove: assign(({ context, event }) => {
        assertEvent(event, 'MOVE');
        const position = positionOf(find(context, event.itemId)) + event.by;
        return { change: { itemId: event.itemId, field: 'position', value: position }, notice: null, refusal: null };
      }),
      startSetting: assign(({ event }) => {
        assertEvent(event, 'SET');
        return { change: { itemId: event.itemId, ...event.setting }, notice: null, refusal: null };
      }),
      storeChanged: assign(({ context, event }) => {
        const item = (event as unknown as DoneActorEvent<Item>).output;
        const moved = context.change?.field === 'position';
        const notice = moved
          ? `${screen.nameOf(item)} moved to place ${positionOf(item) + 1}.`
          : (settingOf(context.change?.field ?? '')?.notice(item) ?? null);
        return { items: placed(order, context.items ?? [], item, moved ? positionOf(item) : undefined), change: null, notice };
      }),
      showRefusal: assign((_, error: unknown) => ({ refusal: refusalOf(error) })),
      forgetChange: assign({ change: null, refusal: null }),
      clearRefusal: assign({ refusal: null }),
      dropChange: assign({ change: null }),
    },
  }).createMachine({
    id: screen.id,
    context: ({ input }) => ({
      items: null,
      filter: screen.filter ?? null,
      loadError: null,
      opening: page ? { itemId: input?.itemId ?? null } : null,
      form: null,
      choices: null,
      upload: null,
      change: null,
      fieldErrors: {},
      formError: null,
      notice: null,
      refusal: null,
      announcement: null,
      preview: null,
    }),
    initial: page ? 'opening' : 'loading',
    states: {
      ...(page ? {} : {
        loading: {
          tags: 'busy',
          entry: 'clearLoadError',
          invoke: {
            id: 'list',
            src: 'list',
            onDone: { target: 'list', actions: 'storeItems' as const },
            onError: { target: 'failed', actions: 'showLoadError' as const },
          },
        },
      }),
      failed: {
        // A record's page that could not open can still be left.
        on: page ? { RETRY: 'opening', CANCEL: leaving } : { RETRY: 'loading' },
      },
      ...(page ? {} : { list: {
        // No form is open: its uploader goes with it.
        ...(image ? { entry: 'stopImageUpload' as const } : {}),
        on: {
          ...('filter' in screen ? { FILTER: { actions: 'filter' as const } } : {}),
          ...(formConfig.create ? { NEW: { target: open ? 'opening' : 'editing', actions: image ? ['openNew', 'startImageUpload'] : 'openNew' } } : {}),
          ...(formConfig.update
            ? { EDIT: { target: opensExisting ? 'opening' : 'editing', actions: image ? ['openExisting', 'startImageUpload'] : 'openExisting' } }
            : {}),
          ...(screen.move ? { MOVE: { guard: 'canMove', target: 'changing', actions: 'startMove' } } : {}),
          ...(screen.settings
            ? {
                SET: [
                  ...(confirmsSome ? [{ guard: 'confirms' as const, target: 'confirming', actions: 'startSetting' as const }] : []),
                  { guard: 'isNewSetting', target: 'changing', actions: 'startSetting' },
                ],
              }
            : {}),
        },
      } }),
      ...(open
        ? {
            opening: {
              tags: 'busy',
              entry: 'clearLoadError',
              ...(page ? { on: { CANCEL: leaving } } : {}),
              invoke: {
                id: 'open',
                src: 'open',
                input: ({ context }: { context: Context }) => ({ itemId: context.opening?.itemId ?? null }),
                onDone: { target: 'editing', actions: 'showOpened' },
                onError: page ? { target: 'failed', actions: 'showLoadError' } : { target: 'list', actions: 'showOpenFailure' },
              },
            },
          }
        : {}),
      editing: {
        on: {
          CHANGE: { actions: 'change' },
          ...(formConfig.edit ? { EDIT_DRAFT: { actions: 'edit' as const } } : {}),
          ...(image
            ? {
                UPLOADED: { actions: 'takeImage' },
                UPLOAD_FAILED: { actions: 'stopWaitingForImage' },
                UPLOAD_CLEARED: { actions: 'forgetImage' },
              }
            : {}),
          SAVE: [
            // The image's key arrives when its upload ends; saving before would drop it.
            ...(image ? [{ guard: 'isUploadingImage' as const, actions: 'askToWaitForImage' as const }] : []),
            { guard: 'isValid', target: 'saving', actions: 'clearErrors' },
            { actions: 'showInvalidFields' },
          ],
          CANCEL: leavingForm,
          ...(preview ? { PREVIEW: [{ guard: 'canPreview' as const, target: 'previewing' }, { actions: 'showUnpreviewable' as const }] } : {}),
        },
      },
      /** Nothing typed is lost unasked: leaving a changed form asks first. */
      confirmingDiscard: {
        on: {
          DISCARD: leaving,
          KEEP_EDITING: 'editing',
        },
      },
      ...(preview
        ? {
            /** The draft run as what it makes; the draft waits, unchanged, until the preview is closed. */
            previewing: {
              entry: 'startPreview',
              exit: ['stopPreview', 'forgetPreview'],
              on: {
                RESTART_PREVIEW: { target: 'previewing', reenter: true },
                CLOSE_PREVIEW: 'editing',
                ...(page ? { CANCEL: leavingForm } : {}),
              },
            },
          }
        : {}),
      // The route changes, and the screen's actor stops with the screen.
      ...(page ? { left: {} } : {}),
      saving: {
        tags: 'busy',
        invoke: {
          id: 'save',
          src: 'save',
          input: ({ context }) => context.form ?? formOf(null),
          onDone: page ? savedOnPage : { target: 'list', actions: 'storeSaved' as const },
          onError: { target: 'editing', actions: { type: 'showSaveFailure', params: errorOf } },
        },
      },
      ...(confirmsSome
        ? {
            confirming: {
              on: {
                CONFIRM: { target: 'changing', actions: 'clearRefusal' },
                CANCEL: { target: 'list', actions: 'forgetChange' },
              },
            },
          }
        : {}),
      ...(screen.move || screen.settings
        ? {
            changing: {
              tags: 'busy',
              invoke: {
                id: 'change',
                src: 'change',
                input: ({ context }: { context: Context }) => context.change ?? { itemId: 0, field: 'position', value: 0 },
                onDone: { target: 'list', actions: 'storeChanged' },
                onError: [
                  ...(confirmsSome ? [{ guard: 'changeConfirms' as const, target: 'confirming', actions: { type: 'showRefusal' as const, params: errorOf } }] : []),
                  { target: 'list', actions: ['dropChange', { type: 'showRefusal', params: errorOf }] },
                ],
              },
            },
          }
        : {}),
    },
  });
}
