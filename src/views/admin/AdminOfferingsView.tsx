import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { AdminOfferingSummary } from '../../contract/adminCatalogue.ts';
import { LINK_ITEM_KEYS, type OfferingListItem, type OfferingType, type SectionType } from '../../contract/offerings.ts';
import {
  type DraftFields,
  type ItemDraft,
  type ItemKind,
  type OfferingDraft,
  type OfferingSetting,
  type SectionDraft,
  type SectionEdit,
  type SectionFields,
  type adminOfferingsMachine,
  previewSectionsOf,
} from '../../machines/adminOfferings.machine.ts';
import type { FieldErrors } from '../../machines/adminForms.ts';
import { Button } from '../../widgets/Button.tsx';
import { ErrorIcon } from '../../widgets/icons.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { OfferingDetailHeader, OfferingHelp, OfferingSectionView } from '../offerings/OfferingSections.tsx';
import { ActionsCell, AdminTable, CollectionForm, CollectionFrame, EditButton, EntryTools, MoveButtons, useIsListed } from './AdminCollection.tsx';
import { Checkbox, CheckboxGroup } from '../../widgets/Checkbox.tsx';
import { ChoiceField } from '../../widgets/RadioGroup.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { StatusBadge } from '../../widgets/StatusBadge.tsx';
import '../offerings/offerings.css';
import './adminOfferings.css';

export type AdminOfferingsActor = ActorRefFrom<typeof adminOfferingsMachine>;

const TYPE_OPTIONS: ReadonlyArray<{ value: OfferingType; label: string; description: string }> = [
  { value: 'benefit', label: 'Benefit', description: "From an employer: only its employees see it." },
  { value: 'product', label: 'Partner offer', description: 'From a partner: every employee sees it.' },
];

const SECTION_TYPE_NAMES: Record<SectionType, string> = {
  numbered: 'Numbered steps',
  key_value: 'Contact rows',
  text: 'Paragraph',
};

const ITEM_KIND_NAMES: Record<ItemKind, string> = { phone: 'Phone', email: 'E-mail', download: 'Download', link: 'Website', label: 'Other (a label)' };
const ITEM_KINDS: readonly ItemKind[] = [...LINK_ITEM_KEYS, 'label'];
/** How a row of each section type is named in its buttons and fields. */
const ITEM_NOUNS: Record<SectionType, string> = { numbered: 'step', key_value: 'row', text: 'paragraph' };

/** Offerings: benefits then partner offers in their order, each moved, featured and published from here; the form. */
export function AdminOfferingsView({ offerings: actor }: { offerings: AdminOfferingsActor }) {
  return (
    <CollectionFrame actor={actor} heading="Offerings" newLabel="New offering">
      {(offerings) => (
        <>
          <OfferingsTable title="Benefits" offerings={offerings.filter((offering) => offering.type === 'benefit')} actor={actor} />
          <OfferingsTable title="Partner offers" offerings={offerings.filter((offering) => offering.type === 'product')} actor={actor} />
          <OfferingForm actor={actor} />
        </>
      )}
    </CollectionFrame>
  );
}

function OfferingsTable({ title, offerings, actor }: { title: string; offerings: AdminOfferingSummary[]; actor: AdminOfferingsActor }) {
  const headingId = useId();
  const canChange = useIsListed(actor);
  const opening = useSelector(actor, (snapshot) => snapshot.context.opening);
  const change = useSelector(actor, (snapshot) => snapshot.context.change);
  const last = offerings.length - 1;
  return (
    <section className="lc-admin-offerings__group" aria-labelledby={headingId}>
      <h2 id={headingId} className="lc-admin-offerings__title">{title}</h2>
      <div className="lc-admin-offerings__scroll">
        {/* The rows are drawn again when what they depend on beside the offering changes. */}
        <AdminTable aria-labelledby={headingId} columns={['Offering', 'Status', 'Featured']} items={offerings} dependencies={[canChange, opening, change, last]}
          empty={<>No {title.toLowerCase()} yet. Press New offering to add one.</>}>
          {(offering) => {
            const isOpening = opening?.itemId === offering.id;
            const isChanging = (field: OfferingSetting['field']) => change?.itemId === offering.id && change.field === field;
            const toggle = (field: OfferingSetting['field'], on: string, off: string) => (
              <Button variant="tertiary" aria-label={`${offering[field] ? off : on} ${offering.name}`}
                isDisabled={!canChange && !isChanging(field)} isLoading={isChanging(field)}
                onPress={() => actor.send({ type: 'SET', itemId: offering.id, setting: { field, value: !offering[field] } })}>
                {offering[field] ? off : on}
              </Button>
            );
            return (
              <>
                <Cell>
                  <span className="lc-admin-table__name">{offering.name}</span>
                  <span className="lc-admin-table__detail">{offering.provider_name} · {offering.heading}</span>
                </Cell>
                <Cell>
                  <StatusBadge tone={offering.published ? 'success' : 'neutral'}>{offering.published ? 'Published' : 'Draft'}</StatusBadge>
                </Cell>
                <Cell>{offering.featured ? 'Featured' : 'No'}</Cell>
                <ActionsCell>
                  <EditButton actor={actor} itemId={offering.id} label={`Edit ${offering.name}`} isDisabled={!canChange && !isOpening} isLoading={isOpening} />
                  <MoveButtons actor={actor} itemId={offering.id} name={offering.name} position={offering.position} last={last}
                    isDisabled={!canChange} />
                  {toggle('featured', 'Feature', 'Unfeature')}
                  {toggle('published', 'Publish', 'Unpublish')}
                </ActionsCell>
              </>
            );
          }}
        </AdminTable>
      </div>
    </section>
  );
}

function OfferingForm({ actor }: { actor: AdminOfferingsActor }) {
  const choices = useSelector(actor, (snapshot) => snapshot.context.choices);
  const isNew = useSelector(actor, (snapshot) => snapshot.context.form?.itemId === null);
  if (!choices) return null;
  const change = (changes: Partial<DraftFields>) => actor.send({ type: 'CHANGE', changes });
  const ids = (values: string[]) => values.map(Number);
  return (
    <CollectionForm<OfferingDraft> actor={actor} fullScreen noun="offering" aside={(draft) => <OfferingPreview draft={draft} />}>
      {(draft, fieldErrors) => (
        <>
          {isNew && (
            <>
              <ChoiceField label="Type" options={TYPE_OPTIONS} value={draft.type} onChange={(type) => change({ type })}
                errorMessage={fieldErrors.type} />
              <TextInput label="Slug" isRequired value={draft.slug} onChange={(slug) => change({ slug })} errorMessage={fieldErrors.slug}
                description="Lower-case letters, digits and hyphens, e.g. gym-membership. It cannot change later." />
            </>
          )}
          <TextInput label="Provider name" isRequired value={draft.provider_name} onChange={(name) => change({ provider_name: name })}
            errorMessage={fieldErrors.provider_name} />
          <TextInput label="Provider logo address" isRequired value={draft.provider_logo_url}
            onChange={(url) => change({ provider_logo_url: url })} errorMessage={fieldErrors.provider_logo_url}
            description="A file of this site (starting with /) or a web address (starting with https://)." />
          <TextInput label="Heading" isRequired value={draft.heading} onChange={(heading) => change({ heading })}
            errorMessage={fieldErrors.heading} description="The card's title and the top of the drawer." />
          <TextInput label="Subheading" isRequired value={draft.subheading} onChange={(subheading) => change({ subheading })}
            errorMessage={fieldErrors.subheading} description="The card's second line." />
          <TextInput label="Name" isRequired value={draft.name} onChange={(name) => change({ name })} errorMessage={fieldErrors.name}
            description="Shown under the heading in the drawer, and in this list." />
          <IdChoices label="Categories" description="The filters it is found under." errorMessage={fieldErrors.category_ids}
            options={choices.categories} value={draft.category_ids} onChange={(values) => change({ category_ids: ids(values) })} />
          {draft.type === 'benefit' && (
            <IdChoices label="Companies" description="Only their employees see the benefit." errorMessage={fieldErrors.company_ids}
              options={choices.companies} value={draft.company_ids} onChange={(values) => change({ company_ids: ids(values) })} />
          )}
          <fieldset className="lc-offering-editor__group">
            <legend className="lc-field__label">Help button <span className="lc-field__optional">(optional)</span></legend>
            <p className="lc-field__description">A button under the sections that starts a request to the concierge.</p>
            <TextInput label="Button text" value={draft.help_cta} onChange={(text) => change({ help_cta: text })}
              errorMessage={fieldErrors['help.cta']} />
            <NativeSelect label="Request it starts" value={draft.help_survey_id === null ? '' : String(draft.help_survey_id)}
              options={[{ value: '', label: 'None' }, ...choices.templates.map((template) => ({ value: String(template.id), label: template.name }))]}
              errorMessage={fieldErrors['help.request_survey_id']}
              onChange={(value) => change({ help_survey_id: value === '' ? null : Number(value) })} />
          </fieldset>
          <SectionsEditor edit={(edit) => actor.send({ type: 'EDIT_DRAFT', edit })} sections={draft.sections} fieldErrors={fieldErrors} />
        </>
      )}
    </CollectionForm>
  );
}

/** A labelled group of checkboxes over records by id, with its error tied to it. */
function IdChoices({ label, description, options, value, onChange, errorMessage }: {
  label: string;
  description: string;
  options: ReadonlyArray<{ id: number; name: string }>;
  value: readonly number[];
  onChange: (values: string[]) => void;
  errorMessage: string | undefined;
}) {
  return (
    <CheckboxGroup label={label} description={description} errorMessage={errorMessage} className="lc-offering-editor__choices"
      value={value.map(String)} onChange={onChange}>
      <div className="lc-offering-editor__choice-list">
        {options.length === 0 && <span className="lc-field__description">None yet.</span>}
        {options.map((option) => (
          <Checkbox key={option.id} value={String(option.id)}>{option.name}</Checkbox>
        ))}
      </div>
    </CheckboxGroup>
  );
}

/** A labelled native select, its error beneath it and tied to it. */
function NativeSelect({ label, value, options, onChange, errorMessage }: {
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string) => void;
  errorMessage: string | undefined;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="lc-field lc-offering-select">
      <label className="lc-field__label" htmlFor={id}>{label}</label>
      <select id={id} className="lc-offering-select__input" value={value} onChange={(event) => onChange(event.target.value)}
        aria-invalid={errorMessage ? true : undefined} aria-describedby={errorMessage ? errorId : undefined}>
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
      {errorMessage && (
        <span id={errorId} className="lc-field__error">
          <ErrorIcon size={16} className="lc-field__error-icon" />
          <span>{errorMessage}</span>
        </span>
      )}
    </div>
  );
}

type Edit = (edit: SectionEdit) => void;

function SectionsEditor({ edit, sections, fieldErrors }: { edit: Edit; sections: SectionDraft[]; fieldErrors: FieldErrors }) {
  return (
    <section className="lc-offering-sections" aria-label="Sections">
      <h3 className="lc-offering-sections__title">Sections</h3>
      {sections.map((section, index) => (
        <SectionEditor key={index} edit={edit} section={section} index={index} count={sections.length} fieldErrors={fieldErrors} />
      ))}
      {fieldErrors.sections && <Message severity="error">{fieldErrors.sections}</Message>}
      <div className="lc-admin-actions">
        {(['numbered', 'key_value', 'text'] as const).map((sectionType) => (
          <Button key={sectionType} variant="secondary" onPress={() => edit({ kind: 'addSection', sectionType })}>
            Add {SECTION_TYPE_NAMES[sectionType].toLowerCase()}
          </Button>
        ))}
      </div>
    </section>
  );
}

function SectionEditor({ edit, section, index, count, fieldErrors }: {
  edit: Edit;
  section: SectionDraft;
  index: number;
  count: number;
  fieldErrors: FieldErrors;
}) {
  const name = `Section ${index + 1}`;
  const path = `sections.${index}`;
  const changeSection = (changes: Partial<SectionFields>) => edit({ kind: 'changeSection', section: index, changes });
  const noun = ITEM_NOUNS[section.section_type];
  const itemsError = fieldErrors[`${path}.items`];
  return (
    <fieldset className="lc-offering-section-editor">
      <legend className="lc-offering-section-editor__legend">{name}: {SECTION_TYPE_NAMES[section.section_type]}</legend>
      <EntryTools className="lc-admin-actions lc-offering-section-editor__tools" index={index} count={count}
        names={[`Move ${name.toLowerCase()} up`, `Move ${name.toLowerCase()} down`, `Remove ${name.toLowerCase()}`]}
        onMove={(by) => edit({ kind: 'moveSection', section: index, by })} onRemove={() => edit({ kind: 'removeSection', section: index })} />
      <TextInput label="Section heading" isRequired value={section.heading} onChange={(heading) => changeSection({ heading })}
        errorMessage={fieldErrors[`${path}.heading`]} />
      <ol className="lc-admin-list">
        {section.items.map((item, itemIndex) => (
          <ItemEditor key={itemIndex} edit={edit} sectionType={section.section_type} section={index} index={itemIndex}
            count={section.items.length} item={item} noun={noun} fieldErrors={fieldErrors} />
        ))}
      </ol>
      {itemsError && <Message severity="error">{itemsError}</Message>}
      {section.section_type !== 'text' && (
        <div>
          <Button variant="secondary" onPress={() => edit({ kind: 'addItem', section: index })}>Add a {noun}</Button>
        </div>
      )}
      <div className="lc-offering-section-editor__cta">
        <TextInput label="Link text" value={section.cta_text} onChange={(text) => changeSection({ cta_text: text })}
          errorMessage={fieldErrors[`${path}.cta_text`]} />
        <TextInput label="Link address" type="url" value={section.cta_url} onChange={(url) => changeSection({ cta_url: url })}
          errorMessage={fieldErrors[`${path}.cta_url`]} description="A button under the section, e.g. https://example.com/claim." />
      </div>
    </fieldset>
  );
}

function ItemEditor({ edit, sectionType, section, index, count, item, noun, fieldErrors }: {
  edit: Edit;
  sectionType: SectionType;
  section: number;
  index: number;
  count: number;
  item: ItemDraft;
  noun: string;
  fieldErrors: FieldErrors;
}) {
  const path = `sections.${section}.items.${index}`;
  const itemName = sectionType === 'text' ? 'Paragraph' : `${noun[0]!.toUpperCase()}${noun.slice(1)} ${index + 1}`;
  const changeItem = (changes: Partial<ItemDraft>) => edit({ kind: 'changeItem', section, item: index, changes });
  return (
    <li className="lc-offering-item-editor">
      {sectionType === 'key_value' && (
        <>
          <NativeSelect label={`${itemName}: kind`} value={item.kind} errorMessage={item.kind === 'label' ? undefined : fieldErrors[`${path}.key`]}
            options={ITEM_KINDS.map((kind) => ({ value: kind, label: ITEM_KIND_NAMES[kind] }))}
            onChange={(kind) => changeItem({ kind: kind as ItemKind })} />
          {item.kind === 'label' && (
            <TextInput label={`${itemName}: label`} isRequired value={item.label} onChange={(label) => changeItem({ label })}
              errorMessage={fieldErrors[`${path}.key`]} />
          )}
        </>
      )}
      <TextInput label={sectionType === 'key_value' ? `${itemName}: value` : itemName} isRequired value={item.value}
        type={sectionType === 'text' ? 'textarea' : 'text'} onChange={(value) => changeItem({ value })}
        errorMessage={fieldErrors[`${path}.value`]} />
      {sectionType === 'key_value' && item.kind !== 'label' && (
        <TextInput label={`${itemName}: link address`} type="url" isRequired={item.kind === 'download'} value={item.external_url}
          onChange={(url) => changeItem({ external_url: url })} errorMessage={fieldErrors[`${path}.external_url`]}
          description={item.kind === 'download' ? 'The address of the file.' : 'When the link goes elsewhere than the value.'} />
      )}
      {sectionType !== 'text' && (
        <EntryTools names={[`Move ${noun} ${index + 1} up`, `Move ${noun} ${index + 1} down`, `Remove ${noun} ${index + 1}`]} index={index}
          count={count} canRemove={count > 1} onMove={(by) => edit({ kind: 'moveItem', section, item: index, by })}
          onRemove={() => edit({ kind: 'removeItem', section, item: index })} />
      )}
    </li>
  );
}

/**
 * The employee's drawer as the draft stands, drawn by the drawer's own parts. It is a picture of the form beside
 * it: inert, so its links neither take focus nor leave the page, and screen readers read the form instead.
 */
function OfferingPreview({ draft }: { draft: OfferingDraft }) {
  const headingId = useId();
  const card: OfferingListItem = {
    id: 0,
    type: draft.type,
    provider_name: draft.provider_name,
    provider_logo_url: draft.provider_logo_url,
    heading: draft.heading,
    subheading: draft.subheading,
    featured: false,
    categories: [],
  };
  return (
    <aside className="lc-offering-preview" aria-labelledby={headingId}>
      <h3 id={headingId} className="lc-offering-preview__title">Preview</h3>
      <p className="lc-field__description">What an employee sees on opening it.</p>
      <div className="lc-offering-preview__drawer lc-offering-detail" inert data-testid="offering-preview">
        <OfferingDetailHeader offering={card} name={draft.name} />
        {previewSectionsOf(draft).map((section) => <OfferingSectionView key={section.id} section={section} onFollow={() => undefined} />)}
        {draft.help_cta.trim() && <OfferingHelp cta={draft.help_cta} onRequest={() => undefined} />}
      </div>
    </aside>
  );
}
