import { type SnapshotFrom, assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AdminCompany } from '../contract/admin.ts';
import {
  type AdminOffering,
  type AdminOfferingCategory,
  type AdminOfferingSummary,
  type AdminTemplateSummary,
  type CreateOfferingRequest,
  type SectionInput,
  type UpdateOfferingRequest,
  createOfferingRequest,
  updateOfferingRequest,
} from '../contract/adminCatalogue.ts';
import {
  LINK_ITEM_KEYS,
  OFFERING_TYPES,
  type LinkItemKey,
  type OfferingSection,
  type OfferingType,
  type SectionType,
} from '../contract/offerings.ts';
import { listCompanies } from '../services/admin.ts';
import {
  createOffering,
  fetchOffering,
  listOfferingCategories,
  listOfferings,
  moveOffering,
  setOfferingFeatured,
  setOfferingPublished,
  updateOffering,
} from '../services/adminOfferings.ts';
import { listTemplates } from '../services/adminSurveys.ts';
import { type FieldErrors, errorOf, failureOf, fieldErrorsOfIssues, refusalOf, withoutErrorsFor } from './adminForms.ts';

export const OFFERINGS_LOAD_ERROR = "We couldn't load the offerings. Please try again.";
export const FORM_LOAD_ERROR = "We couldn't open the offering form. Please try again.";
export const HELP_TEMPLATE_MISSING = 'Choose the request the help button starts';

/** A key_value row's key: one that renders as a link, or a plain label the admin names. */
export type ItemKind = LinkItemKey | 'label';

/** A row of a section as typed; `kind` and `label` are for key_value rows only. */
export interface ItemDraft {
  kind: ItemKind;
  label: string;
  value: string;
  external_url: string;
}

export interface SectionDraft {
  section_type: SectionType;
  heading: string;
  items: ItemDraft[];
  cta_text: string;
  cta_url: string;
}

/** The offering form as typed: empty texts stand for "none" (no help block, no call to action, no link). */
export interface OfferingDraft {
  slug: string;
  type: OfferingType;
  provider_name: string;
  provider_logo_url: string;
  heading: string;
  subheading: string;
  name: string;
  category_ids: number[];
  company_ids: number[];
  help_cta: string;
  help_survey_id: number | null;
  sections: SectionDraft[];
}

export type DraftFields = Omit<OfferingDraft, 'sections'>;
export type SectionFields = Pick<SectionDraft, 'heading' | 'cta_text' | 'cta_url'>;

export const EMPTY_OFFERING_DRAFT: OfferingDraft = {
  slug: '',
  type: 'benefit',
  provider_name: '',
  provider_logo_url: '',
  heading: '',
  subheading: '',
  name: '',
  category_ids: [],
  company_ids: [],
  help_cta: '',
  help_survey_id: null,
  sections: [],
};

const EMPTY_ITEM: ItemDraft = { kind: 'label', label: '', value: '', external_url: '' };

/** A new section has one empty row to fill in; a key_value row starts as a phone number, the commonest. */
export function newSection(sectionType: SectionType): SectionDraft {
  const item = sectionType === 'key_value' ? { ...EMPTY_ITEM, kind: 'phone' as const } : EMPTY_ITEM;
  return { section_type: sectionType, heading: '', items: [item], cta_text: '', cta_url: '' };
}

const linkKeys: readonly string[] = LINK_ITEM_KEYS;
const isLinkKind = (key: string): key is LinkItemKey => linkKeys.includes(key);

export function draftOf(offering: AdminOffering): OfferingDraft {
  return {
    slug: offering.slug,
    type: offering.type,
    provider_name: offering.provider_name,
    provider_logo_url: offering.provider_logo_url,
    heading: offering.heading,
    subheading: offering.subheading,
    name: offering.name,
    category_ids: offering.category_ids,
    company_ids: offering.company_ids,
    help_cta: offering.help?.cta ?? '',
    help_survey_id: offering.help?.request_survey_id ?? null,
    sections: offering.sections.map((section) => ({
      section_type: section.section_type,
      heading: section.heading,
      items: section.items.map((item) => {
        const key = item.key ?? '';
        const kind = isLinkKind(key) ? key : 'label';
        return { kind, label: kind === 'label' ? key : '', value: item.value, external_url: item.external_url ?? '' };
      }),
      cta_text: section.cta_text ?? '',
      cta_url: section.cta_url ?? '',
    })),
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text);

function sectionRequestOf(section: SectionDraft): SectionInput {
  const cta = { cta_text: orNull(section.cta_text), cta_url: orNull(section.cta_url) };
  const { heading } = section;
  switch (section.section_type) {
    case 'numbered':
      return { section_type: 'numbered', heading, items: section.items.map(({ value }) => ({ value })), ...cta };
    case 'text':
      // A text section is one paragraph: the form edits its only row.
      return { section_type: 'text', heading, items: [{ value: section.items[0]?.value ?? '' }], ...cta };
    case 'key_value':
      return {
        section_type: 'key_value',
        heading,
        items: section.items.map((item) => ({
          key: item.kind === 'label' ? item.label : item.kind,
          value: item.value,
          // A label is no link: an address typed before the row became a label is not sent.
          external_url: item.kind === 'label' ? null : orNull(item.external_url),
        })),
        ...cta,
      };
  }
}

/** The fields an edit sends (all of them: lists replace the offering's whole list). */
export function offeringFieldsOf(draft: OfferingDraft): Required<UpdateOfferingRequest> {
  const hasHelp = draft.help_cta.trim() !== '' || draft.help_survey_id !== null;
  return {
    provider_name: draft.provider_name,
    provider_logo_url: draft.provider_logo_url,
    heading: draft.heading,
    subheading: draft.subheading,
    name: draft.name,
    category_ids: draft.category_ids,
    company_ids: draft.company_ids,
    // 0 is no template: the contract refuses it on help.request_survey_id, where the form names the choice missing.
    help: hasHelp ? { cta: draft.help_cta, request_survey_id: draft.help_survey_id ?? 0 } : null,
    sections: draft.sections.map(sectionRequestOf),
  };
}

export function createRequestOf(draft: OfferingDraft): CreateOfferingRequest {
  return { slug: draft.slug, type: draft.type, ...offeringFieldsOf(draft) };
}

/** The draft's sections as the employee's drawer shows them (SPEC §2), for the form's live preview. */
export function previewSectionsOf(draft: OfferingDraft): OfferingSection[] {
  return draft.sections.map((section, index) => {
    const request = sectionRequestOf(section);
    return {
      id: index,
      section_type: request.section_type,
      heading: request.heading,
      items: request.items.map((item) => {
        if (!('key' in item)) return { value: item.value };
        return item.external_url ? { key: item.key, value: item.value, external_url: item.external_url } : { key: item.key, value: item.value };
      }),
      cta_text: request.cta_text ?? null,
      cta_url: request.cta_url ?? null,
    };
  });
}

function checkDraft(form: OfferingForm): FieldErrors {
  const checked =
    form.offeringId === null
      ? createOfferingRequest.safeParse(createRequestOf(form.draft))
      : updateOfferingRequest.safeParse(offeringFieldsOf(form.draft));
  return checked.success ? {} : fieldErrorsOfIssues(checked.error.issues);
}

/** The messages beside the fields; a help button without its request is told to choose one. */
function offeringFieldErrors(fields: FieldErrors, draft: OfferingDraft): FieldErrors {
  if (draft.help_survey_id !== null || !('help.request_survey_id' in fields)) return fields;
  return { ...fields, 'help.request_survey_id': HELP_TEMPLATE_MISSING };
}

const DRAFT_FIELD_PATHS: Partial<Record<keyof DraftFields, string>> = { help_cta: 'help.cta', help_survey_id: 'help.request_survey_id' };
const ITEM_FIELD_PATHS: Record<keyof ItemDraft, readonly string[]> = {
  kind: ['key', 'external_url'],
  label: ['key'],
  value: ['value'],
  external_url: ['external_url'],
};

function moved<T>(list: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

const replaced = <T>(list: readonly T[], index: number, change: (item: T) => T) =>
  list.map((item, at) => (at === index ? change(item) : item));

function summaryOf(offering: AdminOffering): AdminOfferingSummary {
  const { sections: _sections, ...summary } = offering;
  return summary;
}

/**
 * The server numbers a list's places with gaps until a move renumbers it, so the screens hold each record's rank
 * (0, 1, 2... in the server's order) as its position: the ends of the list and a move's target are ranks.
 */
export function ranked<T extends { position: number }>(list: readonly T[]): T[] {
  return list.map((entry, position) => ({ ...entry, position }));
}

/**
 * An ordered list with `changed` in it: at `rank` when given (after a move, the server's renumbered place), or else
 * where it was, or last when it is new.
 */
export function placedInOrder<T extends { id: number; position: number }>(list: readonly T[], changed: T, rank?: number): T[] {
  const at = rank ?? list.findIndex((entry) => entry.id === changed.id);
  const others = list.filter((entry) => entry.id !== changed.id);
  others.splice(at < 0 ? others.length : at, 0, changed);
  return ranked(others);
}

const ofType = (list: readonly AdminOfferingSummary[], type: OfferingType) => list.filter((offering) => offering.type === type);

/** Benefits, then partner offers, each ranked in the server's order. */
export function rankedByType(list: readonly AdminOfferingSummary[]): AdminOfferingSummary[] {
  return OFFERING_TYPES.flatMap((type) => ranked(ofType(list, type)));
}

/** The list with the changed offering in it, among its type (`rank` as for placedInOrder). */
export function placed(list: readonly AdminOfferingSummary[], changed: AdminOfferingSummary, rank?: number): AdminOfferingSummary[] {
  return OFFERING_TYPES.flatMap((type) => (type === changed.type ? placedInOrder(ofType(list, type), changed, rank) : ofType(list, type)));
}

/** Which offering the form is for: null while creating one. */
export interface OfferingForm {
  offeringId: number | null;
  draft: OfferingDraft;
  /** The draft as the form opened: leaving a form that differs from it asks first. */
  openedDraft: OfferingDraft;
}

/** What the form offers to choose from. */
export interface OfferingChoices {
  categories: AdminOfferingCategory[];
  companies: AdminCompany[];
  templates: AdminTemplateSummary[];
}

/** A change made from the list: a move to a place among its type, featuring, publishing. */
export type ListingChange =
  | { kind: 'move'; offeringId: number; position: number }
  | { kind: 'featured'; offeringId: number; value: boolean }
  | { kind: 'published'; offeringId: number; value: boolean };

export interface AdminOfferingsContext {
  offerings: AdminOfferingSummary[] | null;
  loadError: string | null;
  /** The offering whose form is being opened (null: a new one). */
  opening: { offeringId: number | null } | null;
  form: OfferingForm | null;
  choices: OfferingChoices | null;
  listingChange: ListingChange | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  /** What the last change did, e.g. 'Gym membership saved.'. */
  notice: string | null;
  /** Why the last change from the list, or the form's opening, failed. */
  refusal: string | null;
}

export type AdminOfferingsEvent =
  | { type: 'RETRY' }
  | { type: 'NEW' }
  | { type: 'EDIT'; offeringId: number }
  | { type: 'MOVE'; offeringId: number; by: -1 | 1 }
  | { type: 'SET_FEATURED'; offeringId: number; featured: boolean }
  | { type: 'SET_PUBLISHED'; offeringId: number; published: boolean }
  | { type: 'CHANGE'; changes: Partial<DraftFields> }
  | { type: 'ADD_SECTION'; sectionType: SectionType }
  | { type: 'CHANGE_SECTION'; section: number; changes: Partial<SectionFields> }
  | { type: 'MOVE_SECTION'; section: number; by: -1 | 1 }
  | { type: 'REMOVE_SECTION'; section: number }
  | { type: 'ADD_ITEM'; section: number }
  | { type: 'CHANGE_ITEM'; section: number; item: number; changes: Partial<ItemDraft> }
  | { type: 'MOVE_ITEM'; section: number; item: number; by: -1 | 1 }
  | { type: 'REMOVE_ITEM'; section: number; item: number }
  | { type: 'SAVE' }
  | { type: 'CANCEL' }
  | { type: 'DISCARD' }
  | { type: 'KEEP_EDITING' };

export interface OpenedForm extends OfferingChoices {
  offering: AdminOffering | null;
}

const openFormLogic = fromPromise<OpenedForm, { offeringId: number | null }>(async ({ input }) => {
  const [offering, categories, companies, templates] = await Promise.all([
    input.offeringId === null ? null : fetchOffering(input.offeringId),
    listOfferingCategories(),
    listCompanies(),
    listTemplates(),
  ]);
  return { offering, categories, companies, templates };
});

const saveOfferingLogic = fromPromise<AdminOffering, OfferingForm>(({ input }) =>
  input.offeringId === null ? createOffering(createRequestOf(input.draft)) : updateOffering(input.offeringId, offeringFieldsOf(input.draft)),
);

const changeListingLogic = fromPromise<AdminOffering, ListingChange>(({ input }) => {
  switch (input.kind) {
    case 'move':
      return moveOffering(input.offeringId, input.position);
    case 'featured':
      return setOfferingFeatured(input.offeringId, input.value);
    case 'published':
      return setOfferingPublished(input.offeringId, input.value);
  }
});

function noticeOf(change: ListingChange, offering: AdminOffering): string {
  switch (change.kind) {
    case 'move':
      return `${offering.name} moved to place ${offering.position + 1}.`;
    case 'featured':
      return offering.featured ? `${offering.name} is featured.` : `${offering.name} is no longer featured.`;
    case 'published':
      return offering.published ? `${offering.name} is published: employees see it.` : `${offering.name} is a draft again: employees no longer see it.`;
  }
}

/** A change to the open form's sections, with the messages about them that still hold. */
function changeSections(context: AdminOfferingsContext, change: (sections: SectionDraft[]) => SectionDraft[], stalePaths: readonly string[]) {
  if (!context.form) return {};
  const draft = { ...context.form.draft, sections: change(context.form.draft.sections) };
  return { form: { ...context.form, draft }, fieldErrors: withoutErrorsFor(context.fieldErrors, stalePaths) };
}

/**
 * The admin's offerings (issue 13): benefits then partner offers, in order, each moved up or down, featured and
 * published from the list; a form to create or edit one with its sections, held here as typed and checked with the
 * contract's schema before it is sent, that keeps what was typed when the server refuses it and shows each message
 * beside the field it names.
 */
export const adminOfferingsMachine = setup({
  types: {
    context: {} as AdminOfferingsContext,
    events: {} as AdminOfferingsEvent,
  },
  actors: {
    listOfferings: fromPromise<AdminOfferingSummary[]>(() => listOfferings()),
    openForm: openFormLogic,
    saveOffering: saveOfferingLogic,
    changeListing: changeListingLogic,
  },
  guards: {
    isValid: ({ context }) => context.form !== null && Object.keys(checkDraft(context.form)).length === 0,
    hasUnsavedChanges: ({ context }) =>
      context.form !== null && JSON.stringify(context.form.draft) !== JSON.stringify(context.form.openedDraft),
    canMove: ({ context, event }) => {
      assertEvent(event, 'MOVE');
      const offering = context.offerings?.find((candidate) => candidate.id === event.offeringId);
      if (!offering) return false;
      const position = offering.position + event.by;
      return position >= 0 && position < (context.offerings ?? []).filter((other) => other.type === offering.type).length;
    },
  },
  actions: {
    storeOfferings: assign((_, offerings: AdminOfferingSummary[]) => ({ offerings: rankedByType(offerings), loadError: null })),
    clearLoadError: assign({ loadError: null }),
    showLoadError: assign({ loadError: OFFERINGS_LOAD_ERROR }),
    openNew: assign({ opening: { offeringId: null }, notice: null, refusal: null }),
    openExisting: assign(({ event }) => {
      assertEvent(event, 'EDIT');
      return { opening: { offeringId: event.offeringId }, notice: null, refusal: null };
    }),
    showForm: assign((_, opened: OpenedForm) => {
      const { offering, ...choices } = opened;
      const draft = offering ? draftOf(offering) : EMPTY_OFFERING_DRAFT;
      const form: OfferingForm = { offeringId: offering?.id ?? null, draft, openedDraft: draft };
      return { form, choices, opening: null, fieldErrors: {}, formError: null };
    }),
    showFormLoadError: assign({ opening: null, refusal: FORM_LOAD_ERROR }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      if (!context.form) return {};
      const changes = { ...event.changes };
      // A partner offer is everyone's: it names no company.
      if (changes.type === 'product') changes.company_ids = [];
      const stale = Object.keys(changes).map((field) => DRAFT_FIELD_PATHS[field as keyof DraftFields] ?? field);
      return { form: { ...context.form, draft: { ...context.form.draft, ...changes } }, fieldErrors: withoutErrorsFor(context.fieldErrors, stale) };
    }),
    addSection: assign(({ context, event }) => {
      assertEvent(event, 'ADD_SECTION');
      return changeSections(context, (sections) => [...sections, newSection(event.sectionType)], ['sections']);
    }),
    changeSection: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_SECTION');
      const stale = Object.keys(event.changes).map((field) => `sections.${event.section}.${field}`);
      return changeSections(context, (sections) => replaced(sections, event.section, (section) => ({ ...section, ...event.changes })), stale);
    }),
    moveSection: assign(({ context, event }) => {
      assertEvent(event, 'MOVE_SECTION');
      // The messages name sections by their place: once the places change they would point at the wrong one.
      return changeSections(context, (sections) => moved(sections, event.section, event.by), ['sections']);
    }),
    removeSection: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_SECTION');
      return changeSections(context, (sections) => sections.filter((_, index) => index !== event.section), ['sections']);
    }),
    addItem: assign(({ context, event }) => {
      assertEvent(event, 'ADD_ITEM');
      const stale = [`sections.${event.section}.items`];
      return changeSections(
        context,
        (sections) => replaced(sections, event.section, (section) => ({ ...section, items: [...section.items, newSection(section.section_type).items[0]!] })),
        stale,
      );
    }),
    changeItem: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_ITEM');
      const fields = Object.keys(event.changes) as (keyof ItemDraft)[];
      const stale = fields.flatMap((field) => ITEM_FIELD_PATHS[field].map((path) => `sections.${event.section}.items.${event.item}.${path}`));
      return changeSections(
        context,
        (sections) =>
          replaced(sections, event.section, (section) => ({
            ...section,
            items: replaced(section.items, event.item, (item) => ({ ...item, ...event.changes })),
          })),
        stale,
      );
    }),
    moveItem: assign(({ context, event }) => {
      assertEvent(event, 'MOVE_ITEM');
      return changeSections(
        context,
        (sections) => replaced(sections, event.section, (section) => ({ ...section, items: moved(section.items, event.item, event.by) })),
        [`sections.${event.section}`],
      );
    }),
    removeItem: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_ITEM');
      return changeSections(
        context,
        (sections) => replaced(sections, event.section, (section) => ({ ...section, items: section.items.filter((_, index) => index !== event.item) })),
        [`sections.${event.section}`],
      );
    }),
    showInvalidFields: assign(({ context }) => {
      if (!context.form) return {};
      return { fieldErrors: offeringFieldErrors(checkDraft(context.form), context.form.draft), formError: null };
    }),
    clearErrors: assign({ fieldErrors: {}, formError: null }),
    showSaveFailure: assign(({ context }, error: unknown) => {
      const { fieldErrors, formError } = failureOf(error);
      return { fieldErrors: context.form ? offeringFieldErrors(fieldErrors, context.form.draft) : fieldErrors, formError };
    }),
    storeSaved: assign(({ context }, offering: AdminOffering) => ({
      offerings: placed(context.offerings ?? [], summaryOf(offering)),
      form: null,
      choices: null,
      notice: `${offering.name} saved.`,
    })),
    closeForm: assign({ form: null, choices: null, fieldErrors: {}, formError: null }),
    startListingChange: assign(({ context, event }) => {
      const position = (offeringId: number) => context.offerings?.find((offering) => offering.id === offeringId)?.position ?? 0;
      const change: ListingChange | null =
        event.type === 'MOVE'
          ? { kind: 'move', offeringId: event.offeringId, position: position(event.offeringId) + event.by }
          : event.type === 'SET_FEATURED'
            ? { kind: 'featured', offeringId: event.offeringId, value: event.featured }
            : event.type === 'SET_PUBLISHED'
              ? { kind: 'published', offeringId: event.offeringId, value: event.published }
              : null;
      return { listingChange: change, notice: null, refusal: null };
    }),
    storeListingChange: assign(({ context }, offering: AdminOffering) => ({
      offerings: placed(context.offerings ?? [], summaryOf(offering), context.listingChange?.kind === 'move' ? offering.position : undefined),
      listingChange: null,
      notice: context.listingChange ? noticeOf(context.listingChange, offering) : null,
    })),
    showListingRefusal: assign((_, error: unknown) => ({ listingChange: null, refusal: refusalOf(error) })),
  },
}).createMachine({
  id: 'adminOfferings',
  context: {
    offerings: null,
    loadError: null,
    opening: null,
    form: null,
    choices: null,
    listingChange: null,
    fieldErrors: {},
    formError: null,
    notice: null,
    refusal: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearLoadError',
      invoke: {
        id: 'listOfferings',
        src: 'listOfferings',
        onDone: { target: 'list', actions: { type: 'storeOfferings', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    list: {
      on: {
        NEW: { target: 'opening', actions: 'openNew' },
        EDIT: { target: 'opening', actions: 'openExisting' },
        MOVE: { guard: 'canMove', target: 'changingListing', actions: 'startListingChange' },
        SET_FEATURED: { target: 'changingListing', actions: 'startListingChange' },
        SET_PUBLISHED: { target: 'changingListing', actions: 'startListingChange' },
      },
    },
    opening: {
      tags: 'busy',
      invoke: {
        id: 'openForm',
        src: 'openForm',
        input: ({ context }) => ({ offeringId: context.opening?.offeringId ?? null }),
        onDone: { target: 'editing', actions: { type: 'showForm', params: ({ event }) => event.output } },
        onError: { target: 'list', actions: 'showFormLoadError' },
      },
    },
    editing: {
      on: {
        CHANGE: { actions: 'change' },
        ADD_SECTION: { actions: 'addSection' },
        CHANGE_SECTION: { actions: 'changeSection' },
        MOVE_SECTION: { actions: 'moveSection' },
        REMOVE_SECTION: { actions: 'removeSection' },
        ADD_ITEM: { actions: 'addItem' },
        CHANGE_ITEM: { actions: 'changeItem' },
        MOVE_ITEM: { actions: 'moveItem' },
        REMOVE_ITEM: { actions: 'removeItem' },
        SAVE: [{ guard: 'isValid', target: 'saving', actions: 'clearErrors' }, { actions: 'showInvalidFields' }],
        CANCEL: [{ guard: 'hasUnsavedChanges', target: 'confirmingDiscard' }, { target: 'list', actions: 'closeForm' }],
      },
    },
    /** Nothing typed is lost unasked: leaving a changed form asks first. */
    confirmingDiscard: {
      on: {
        DISCARD: { target: 'list', actions: 'closeForm' },
        KEEP_EDITING: 'editing',
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveOffering',
        src: 'saveOffering',
        input: ({ context }) => context.form ?? { offeringId: null, draft: EMPTY_OFFERING_DRAFT, openedDraft: EMPTY_OFFERING_DRAFT },
        onDone: { target: 'list', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        onError: { target: 'editing', actions: { type: 'showSaveFailure', params: errorOf } },
      },
    },
    changingListing: {
      tags: 'busy',
      invoke: {
        id: 'changeListing',
        src: 'changeListing',
        input: ({ context }) => context.listingChange ?? { kind: 'featured', offeringId: 0, value: false },
        onDone: { target: 'list', actions: { type: 'storeListingChange', params: ({ event }) => event.output } },
        onError: { target: 'list', actions: { type: 'showListingRefusal', params: errorOf } },
      },
    },
  },
});

export type AdminOfferingsSnapshot = SnapshotFrom<typeof adminOfferingsMachine>;
