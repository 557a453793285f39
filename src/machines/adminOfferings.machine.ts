import type { SnapshotFrom } from 'xstate';
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
import { adminCollectionMachine } from './adminCollection.ts';
import { type FieldErrors, moved, replaced } from './adminForms.ts';

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

/** What the form offers to choose from. */
export interface OfferingChoices {
  categories: AdminOfferingCategory[];
  companies: AdminCompany[];
  templates: AdminTemplateSummary[];
}

/** An edit of the form's sections and their rows (places are 0-based). */
export type SectionEdit =
  | { kind: 'addSection'; sectionType: SectionType }
  | { kind: 'changeSection'; section: number; changes: Partial<SectionFields> }
  | { kind: 'moveSection'; section: number; by: -1 | 1 }
  | { kind: 'removeSection'; section: number }
  | { kind: 'addItem'; section: number }
  | { kind: 'changeItem'; section: number; item: number; changes: Partial<ItemDraft> }
  | { kind: 'moveItem'; section: number; item: number; by: -1 | 1 }
  | { kind: 'removeItem'; section: number; item: number };

/** The sections after an edit, and the messages that no longer hold: by place, once places change. */
function editedSections(sections: SectionDraft[], edit: SectionEdit): { sections: SectionDraft[]; stale: string[] } {
  const inSection = (change: (section: SectionDraft) => SectionDraft) => replaced(sections, edit.kind === 'addSection' ? -1 : edit.section, change);
  switch (edit.kind) {
    case 'addSection':
      return { sections: [...sections, newSection(edit.sectionType)], stale: ['sections'] };
    case 'changeSection':
      return {
        sections: inSection((section) => ({ ...section, ...edit.changes })),
        stale: Object.keys(edit.changes).map((field) => `sections.${edit.section}.${field}`),
      };
    case 'moveSection':
      return { sections: moved(sections, edit.section, edit.by), stale: ['sections'] };
    case 'removeSection':
      return { sections: sections.filter((_, index) => index !== edit.section), stale: ['sections'] };
    case 'addItem':
      return {
        sections: inSection((section) => ({ ...section, items: [...section.items, newSection(section.section_type).items[0]!] })),
        stale: [`sections.${edit.section}.items`],
      };
    case 'changeItem': {
      const fields = Object.keys(edit.changes) as (keyof ItemDraft)[];
      return {
        sections: inSection((section) => ({ ...section, items: replaced(section.items, edit.item, (item) => ({ ...item, ...edit.changes })) })),
        stale: fields.flatMap((field) => ITEM_FIELD_PATHS[field].map((path) => `sections.${edit.section}.items.${edit.item}.${path}`)),
      };
    }
    case 'moveItem':
      return { sections: inSection((section) => ({ ...section, items: moved(section.items, edit.item, edit.by) })), stale: [`sections.${edit.section}`] };
    case 'removeItem':
      return {
        sections: inSection((section) => ({ ...section, items: section.items.filter((_, index) => index !== edit.item) })),
        stale: [`sections.${edit.section}`],
      };
  }
}

export type OfferingSetting = { field: 'featured'; value: boolean } | { field: 'published'; value: boolean };
type OfferingRequest = UpdateOfferingRequest | CreateOfferingRequest;

export interface OpenedForm {
  item: AdminOffering | null;
  choices: OfferingChoices;
}

async function openForm(offeringId: number | null): Promise<OpenedForm> {
  const [item, categories, companies, templates] = await Promise.all([
    offeringId === null ? null : fetchOffering(offeringId),
    listOfferingCategories(),
    listCompanies(),
    listTemplates(),
  ]);
  return { item, choices: { categories, companies, templates } };
}

/**
 * The admin's offerings (issue 13): benefits then partner offers, in order, each moved up or down, featured and
 * published from the list; a form, opened with what it offers to choose from, to create or edit one with its
 * sections.
 */
export const adminOfferingsMachine = adminCollectionMachine<
  'adminOfferings',
  AdminOfferingSummary,
  OfferingDraft,
  OfferingRequest,
  AdminOffering,
  OfferingChoices,
  OfferingSetting,
  SectionEdit
>({
  id: 'adminOfferings',
  loadError: OFFERINGS_LOAD_ERROR,
  list: listOfferings,
  order: { ranked: true, groups: { of: (offering) => offering.type, order: OFFERING_TYPES } },
  nameOf: (offering) => offering.name,
  form: {
    empty: EMPTY_OFFERING_DRAFT,
    draftOf,
    schema: (isNew) => (isNew ? createOfferingRequest : updateOfferingRequest),
    requestOf: (draft, isNew) => (isNew ? createRequestOf(draft) : offeringFieldsOf(draft)),
    // A new offering's request is createRequestOf's (requestOf above).
    create: (request) => createOffering(request as CreateOfferingRequest),
    update: (offeringId, request) => updateOffering(offeringId, request as UpdateOfferingRequest),
    messagesOf: offeringFieldErrors,
    // A partner offer is everyone's: it names no company.
    changed: (draft, changes) => ({ ...draft, ...changes, ...(changes.type === 'product' ? { company_ids: [] } : {}) }),
    stalePaths: (changes) => Object.keys(changes).map((field) => DRAFT_FIELD_PATHS[field as keyof DraftFields] ?? field),
    edit: (draft, edit) => {
      const { sections, stale } = editedSections(draft.sections, edit);
      return { draft: { ...draft, sections }, stale };
    },
    open: { call: openForm, loadError: FORM_LOAD_ERROR },
  },
  move: moveOffering,
  settings: {
    featured: {
      call: setOfferingFeatured,
      notice: (offering) => (offering.featured ? `${offering.name} is featured.` : `${offering.name} is no longer featured.`),
    },
    published: {
      call: setOfferingPublished,
      notice: (offering) =>
        offering.published ? `${offering.name} is published: employees see it.` : `${offering.name} is a draft again: employees no longer see it.`,
    },
  },
});

export type AdminOfferingsSnapshot = SnapshotFrom<typeof adminOfferingsMachine>;
