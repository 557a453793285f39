import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AdminSurveyCategory, AdminTemplateSummary } from '../../contract/adminCatalogue.ts';
import type { CategoryDraft, adminSurveyCategoriesMachine } from '../../machines/adminSurveyCategories.machine.ts';
import type { CategoryFilter, TemplateDetailsDraft, adminSurveyTemplatesMachine } from '../../machines/adminSurveyTemplates.machine.ts';
import { SURVEYS_PATH, templatePath } from '../../machines/adminTemplateQuestions.machine.ts';
import type { FieldErrors } from '../../machines/adminForms.ts';
import { Button, LinkButton } from '../../widgets/Button.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, CollectionForm, EditButton, useIsListed } from './AdminCollection.tsx';
import { Checkbox } from '../../widgets/Checkbox.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { AdminListFrame, ImageUploadField } from './AdminParts.tsx';

export type SurveyCategoriesActor = ActorRefFrom<typeof adminSurveyCategoriesMachine>;
export type SurveyTemplatesActor = ActorRefFrom<typeof adminSurveyTemplatesMachine>;

export const SLUG_DESCRIPTION = 'Lower-case letters, digits and single hyphens, e.g. home-moving.';
const NO_CATEGORY = 'none';

/** The category choices of a template: none, or one of the categories. */
function categoryOptions(categories: readonly AdminSurveyCategory[]) {
  return [{ id: NO_CATEGORY, label: 'No category' }, ...categories.map((category) => ({ id: String(category.id), label: category.name }))];
}

export interface AdminSurveysViewProps {
  categories: SurveyCategoriesActor;
  templates: SurveyTemplatesActor;
}

/**
 * Survey categories and request templates, one screen over two lists (each its own machine, loaded together): the
 * categories with their images and template counts, the templates (filtered by category) with their versions, and
 * the forms to create or edit a category and a template's details. A template's questions are edited, and a new
 * template created, on its own page.
 */
export function AdminSurveysView({ categories: categoriesActor, templates: templatesActor }: AdminSurveysViewProps) {
  const categories = useSelector(categoriesActor, (snapshot) => snapshot.context.items);
  const templates = useSelector(templatesActor, (snapshot) => snapshot.context.items);
  const categoriesFailure = useSelector(categoriesActor, (snapshot) => snapshot.context.loadError);
  const templatesFailure = useSelector(templatesActor, (snapshot) => snapshot.context.loadError);
  const categoriesNotice = useSelector(categoriesActor, (snapshot) => snapshot.context.notice);
  const templatesNotice = useSelector(templatesActor, (snapshot) => snapshot.context.notice);
  const categoriesBusy = useSelector(categoriesActor, (snapshot) => snapshot.hasTag('busy'));
  const templatesBusy = useSelector(templatesActor, (snapshot) => snapshot.hasTag('busy'));
  const retry = () => {
    categoriesActor.send({ type: 'RETRY' });
    templatesActor.send({ type: 'RETRY' });
  };

  return (
    <AdminListFrame heading="Surveys" isBusy={categoriesBusy || templatesBusy} loadError={categoriesFailure ?? templatesFailure} onRetry={retry}
      notice={categoriesNotice ?? templatesNotice} isLoaded={categories !== null && templates !== null}>
      {categories && templates && (
        <>
          <CategoriesSection categories={categories} templates={templates} actor={categoriesActor} templatesActor={templatesActor} />
          <TemplatesSection categories={categories} templates={templates} actor={templatesActor} />
        </>
      )}
      <CategoryForm actor={categoriesActor} />
      <TemplateDetailsForm actor={templatesActor} categories={categories ?? []} />
    </AdminListFrame>
  );
}

interface CategoriesSectionProps {
  categories: AdminSurveyCategory[];
  templates: AdminTemplateSummary[];
  actor: SurveyCategoriesActor;
  templatesActor: SurveyTemplatesActor;
}

function CategoriesSection({ categories, templates, actor, templatesActor }: CategoriesSectionProps) {
  const canCreate = useIsListed(actor);
  return (
    <section className="lc-admin-surveys__section" aria-labelledby="survey-categories-heading">
      <div className="lc-admin-bar">
        <h2 id="survey-categories-heading">Categories</h2>
        <Button onPress={() => actor.send({ type: 'NEW' })} isDisabled={!canCreate}>New category</Button>
      </div>
      <AdminTable aria-label="Survey categories" columns={['Category', 'Templates']} items={categories} dependencies={[templates]} empty="No survey categories yet. Create the first one.">
        {(category) => (
          <>
            <Cell>
              <span className="lc-admin-surveys__category">
                <img src={category.image_url} alt="" width={40} height={40} className="lc-admin-surveys__image" />
                <span>
                  <span className="lc-admin-table__name">{category.name}</span>
                  <span className="lc-admin-table__detail">{category.slug}</span>
                </span>
              </span>
            </Cell>
            {/* Counted from the templates as they now are: a template moved to another category counts there at once. */}
            <Cell>{templates.filter((template) => template.category_id === category.id).length}</Cell>
            <ActionsCell>
              <EditButton actor={actor} itemId={category.id} label={`Edit ${category.name}`} />
              <Button variant="tertiary" aria-label={`Show templates of ${category.name}`}
                onPress={() => templatesActor.send({ type: 'FILTER', filter: category.id })}>
                Show templates
              </Button>
            </ActionsCell>
          </>
        )}
      </AdminTable>
    </section>
  );
}

const filterOf = (key: string): CategoryFilter => (key === 'all' || key === NO_CATEGORY ? key : Number(key));

function TemplatesSection({ categories, templates, actor }: { categories: AdminSurveyCategory[]; templates: AdminTemplateSummary[]; actor: SurveyTemplatesActor }) {
  const filter = useSelector(actor, (snapshot) => snapshot.context.filter) ?? 'all';
  const canFilter = useIsListed(actor);
  const categoryNames = new Map(categories.map((category) => [category.id, category.name]));
  const shown = templates.filter((template) =>
    filter === 'all' ? true : filter === NO_CATEGORY ? template.category_id === null : template.category_id === filter,
  );
  const filterOptions = [{ id: 'all', label: 'All categories' }, ...categoryOptions(categories)];
  return (
    <section className="lc-admin-surveys__section" aria-labelledby="request-templates-heading">
      <div className="lc-admin-bar">
        <h2 id="request-templates-heading">Request templates</h2>
        <LinkButton href={`${SURVEYS_PATH}/new`}>New template</LinkButton>
      </div>
      <Select label="Show templates in" options={filterOptions} value={String(filter)} isDisabled={!canFilter}
        onChange={(key) => actor.send({ type: 'FILTER', filter: filterOf(key) })} />
      <AdminTable aria-label="Request templates" columns={['Template', 'Category', 'For alpha', 'Version']} items={shown} dependencies={[categories]} empty="No request templates here yet. Create one with New template.">
        {(template) => (
          <>
            <Cell>
              <span className="lc-admin-table__name">{template.name}</span>
              <span className="lc-admin-table__detail">{template.slug}</span>
            </Cell>
            <Cell>{template.category_id === null ? 'No category' : (categoryNames.get(template.category_id) ?? '')}</Cell>
            <Cell>{template.for_alpha ? 'Yes' : 'No'}</Cell>
            <Cell>{template.version}</Cell>
            <ActionsCell>
              <EditButton actor={actor} itemId={template.id} label={`Edit details of ${template.name}`}>Edit details</EditButton>
              <LinkButton variant="tertiary" href={templatePath(template.id)} aria-label={`Edit questions of ${template.name}`}>
                Edit questions
              </LinkButton>
            </ActionsCell>
          </>
        )}
      </AdminTable>
    </section>
  );
}

function CategoryForm({ actor }: { actor: SurveyCategoriesActor }) {
  return (
    <CollectionForm<CategoryDraft> actor={actor} noun="category" newTitle="New survey category">
      {(draft, fieldErrors, isSaving, change) => (
        <>
          <TextInput label="Name" isRequired value={draft.name} onChange={(name) => change({ name })} errorMessage={fieldErrors.name}
            description="As employees see it, e.g. Home / Moving." />
          <TextInput label="Slug" isRequired value={draft.slug} onChange={(slug) => change({ slug })} errorMessage={fieldErrors.slug}
            description={SLUG_DESCRIPTION} />
          <ImageUploadField legend="Image" isDisabled={isSaving} actor={actor} alt={`Current image of ${draft.name}`}
            chooseLabel="Choose an image" replaceLabel="Replace the image" errorMessage={fieldErrors.image_upload_key} />
        </>
      )}
    </CollectionForm>
  );
}

function TemplateDetailsForm({ actor, categories }: { actor: SurveyTemplatesActor; categories: AdminSurveyCategory[] }) {
  return (
    <CollectionForm<TemplateDetailsDraft> actor={actor} noun="template">
      {(draft, fieldErrors, _isSaving, change) => (
        <TemplateDetailsFields draft={draft} categories={categories} fieldErrors={fieldErrors} isNew={false} onChange={change} />
      )}
    </CollectionForm>
  );
}

export interface TemplateDetailsFieldsProps {
  draft: TemplateDetailsDraft;
  categories: readonly AdminSurveyCategory[];
  fieldErrors: FieldErrors;
  /** The slug is given once, when the template is created. */
  isNew: boolean;
  onChange: (changes: Partial<TemplateDetailsDraft>) => void;
}

/** A template's name, slug (when it is created), whether employees can start it, and its category. */
export function TemplateDetailsFields({ draft, categories, fieldErrors, isNew, onChange }: TemplateDetailsFieldsProps) {
  return (
    <>
      <TextInput label="Name" isRequired value={draft.name} onChange={(name) => onChange({ name })} errorMessage={fieldErrors.name}
        description="The request's name, as employees see it." />
      {isNew ? (
        <TextInput label="Slug" isRequired value={draft.slug} onChange={(slug) => onChange({ slug })} errorMessage={fieldErrors.slug}
          description={SLUG_DESCRIPTION} />
      ) : (
        <p className="lc-field__description">Slug: {draft.slug}</p>
      )}
      <Checkbox isSelected={draft.for_alpha} onChange={(forAlpha) => onChange({ for_alpha: forAlpha })}>
        <span>
          For alpha
          <span className="lc-field__description">Employees can start it in the app; otherwise it is kept out of the app's lists.</span>
        </span>
      </Checkbox>
      <Select label="Category" options={categoryOptions(categories)} value={draft.category_id === null ? NO_CATEGORY : String(draft.category_id)}
        errorMessage={fieldErrors.category_id}
        onChange={(key) => onChange({ category_id: key === NO_CATEGORY ? null : Number(key) })} />
    </>
  );
}
