import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AdminSurveyCategory, AdminTemplateSummary } from '../../contract/adminCatalogue.ts';
import type { CategoryDraft, CategoryFilter, TemplateDetailsDraft, adminSurveysMachine } from '../../machines/adminSurveys.machine.ts';
import { SURVEYS_PATH, templatePath } from '../../machines/adminTemplateQuestions.machine.ts';
import type { FieldErrors } from '../../machines/adminForms.ts';
import { Button, LinkButton } from '../../widgets/Button.tsx';
import { Checkbox } from '../../widgets/Checkbox.tsx';
import { Form } from '../../widgets/Form.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { AdminListFrame, ImageUploadField } from './AdminParts.tsx';

export type AdminSurveysActor = ActorRefFrom<typeof adminSurveysMachine>;

export const SLUG_DESCRIPTION = 'Lower-case letters, digits and single hyphens, e.g. home-moving.';
const NO_CATEGORY = 'none';

/** The category choices of a template: none, or one of the categories. */
function categoryOptions(categories: readonly AdminSurveyCategory[]) {
  return [{ id: NO_CATEGORY, label: 'No category' }, ...categories.map((category) => ({ id: String(category.id), label: category.name }))];
}

/**
 * Survey categories and request templates: the categories with their images and template counts, the templates
 * (filtered by category) with their versions, and the forms to create or edit a category and a template's details.
 * A template's questions are edited, and a new template created, on its own page.
 */
export function AdminSurveysView({ surveys: actor }: { surveys: AdminSurveysActor }) {
  const categories = useSelector(actor, (snapshot) => snapshot.context.categories);
  const templates = useSelector(actor, (snapshot) => snapshot.context.templates);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));

  return (
    <AdminListFrame heading="Surveys" isBusy={isBusy} loadError={loadError} onRetry={() => actor.send({ type: 'RETRY' })}
      notice={notice} isLoaded={categories !== null && templates !== null}>
      {categories && templates && (
        <>
          <CategoriesSection categories={categories} actor={actor} />
          <TemplatesSection categories={categories} templates={templates} actor={actor} />
        </>
      )}
      <CategoryFormDrawer actor={actor} />
      <TemplateDetailsDrawer actor={actor} />
    </AdminListFrame>
  );
}

function CategoriesSection({ categories, actor }: { categories: AdminSurveyCategory[]; actor: AdminSurveysActor }) {
  const canCreate = useSelector(actor, (snapshot) => snapshot.can({ type: 'NEW_CATEGORY' }));
  return (
    <section className="lc-admin-surveys__section" aria-labelledby="survey-categories-heading">
      <div className="lc-admin-surveys__top">
        <h2 id="survey-categories-heading">Categories</h2>
        <Button onPress={() => actor.send({ type: 'NEW_CATEGORY' })} isDisabled={!canCreate}>New category</Button>
      </div>
      <Table aria-label="Survey categories" className="lc-admin-table">
        <TableHeader>
          <Column isRowHeader>Category</Column>
          <Column>Templates</Column>
          <Column>
            <span className="lc-visually-hidden">Actions</span>
          </Column>
        </TableHeader>
        <TableBody items={categories} renderEmptyState={() => <p className="lc-admin-empty">No survey categories yet. Create the first one.</p>}>
          {(category) => (
            <Row id={category.id}>
              <Cell>
                <span className="lc-admin-surveys__category">
                  <img src={category.image_url} alt="" width={40} height={40} className="lc-admin-surveys__image" />
                  <span>
                    <span className="lc-admin-table__name">{category.name}</span>
                    <span className="lc-admin-table__detail">{category.slug}</span>
                  </span>
                </span>
              </Cell>
              <Cell>{category.template_count}</Cell>
              <Cell>
                <div className="lc-admin-actions">
                  <Button variant="secondary" aria-label={`Edit ${category.name}`}
                    onPress={() => actor.send({ type: 'EDIT_CATEGORY', categoryId: category.id })}>
                    Edit
                  </Button>
                  <Button variant="tertiary" aria-label={`Show templates of ${category.name}`}
                    onPress={() => actor.send({ type: 'FILTER', categoryFilter: category.id })}>
                    Show templates
                  </Button>
                </div>
              </Cell>
            </Row>
          )}
        </TableBody>
      </Table>
    </section>
  );
}

const filterKeyOf = (filter: CategoryFilter) => String(filter);
const filterOf = (key: string): CategoryFilter => (key === 'all' || key === NO_CATEGORY ? key : Number(key));

function TemplatesSection({ categories, templates, actor }: { categories: AdminSurveyCategory[]; templates: AdminTemplateSummary[]; actor: AdminSurveysActor }) {
  const filter = useSelector(actor, (snapshot) => snapshot.context.categoryFilter);
  const canFilter = useSelector(actor, (snapshot) => snapshot.can({ type: 'FILTER', categoryFilter: 'all' }));
  const categoryNames = new Map(categories.map((category) => [category.id, category.name]));
  const shown = templates.filter((template) =>
    filter === 'all' ? true : filter === NO_CATEGORY ? template.category_id === null : template.category_id === filter,
  );
  const filterOptions = [{ id: 'all', label: 'All categories' }, ...categoryOptions(categories)];
  return (
    <section className="lc-admin-surveys__section" aria-labelledby="request-templates-heading">
      <div className="lc-admin-surveys__top">
        <h2 id="request-templates-heading">Request templates</h2>
        <LinkButton href={`${SURVEYS_PATH}/new`}>New template</LinkButton>
      </div>
      <Select label="Show templates in" options={filterOptions} value={filterKeyOf(filter)} isDisabled={!canFilter}
        onChange={(key) => actor.send({ type: 'FILTER', categoryFilter: filterOf(key) })} />
      <Table aria-label="Request templates" className="lc-admin-table">
        <TableHeader>
          <Column isRowHeader>Template</Column>
          <Column>Category</Column>
          <Column>For alpha</Column>
          <Column>Version</Column>
          <Column>
            <span className="lc-visually-hidden">Actions</span>
          </Column>
        </TableHeader>
        <TableBody items={shown} dependencies={[categories]}
          renderEmptyState={() => <p className="lc-admin-empty">No request templates here yet. Create one with New template.</p>}>
          {(template) => (
            <Row id={template.id}>
              <Cell>
                <span className="lc-admin-table__name">{template.name}</span>
                <span className="lc-admin-table__detail">{template.slug}</span>
              </Cell>
              <Cell>{template.category_id === null ? 'No category' : (categoryNames.get(template.category_id) ?? '')}</Cell>
              <Cell>{template.for_alpha ? 'Yes' : 'No'}</Cell>
              <Cell>{template.version}</Cell>
              <Cell>
                <div className="lc-admin-actions">
                  <Button variant="secondary" aria-label={`Edit details of ${template.name}`}
                    onPress={() => actor.send({ type: 'EDIT_TEMPLATE', templateId: template.id })}>
                    Edit details
                  </Button>
                  <LinkButton variant="tertiary" href={templatePath(template.id)} aria-label={`Edit questions of ${template.name}`}>
                    Edit questions
                  </LinkButton>
                </div>
              </Cell>
            </Row>
          )}
        </TableBody>
      </Table>
    </section>
  );
}

function CategoryFormDrawer({ actor }: { actor: AdminSurveysActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.categoryForm);
  const upload = useSelector(actor, (snapshot) => snapshot.context.upload);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('savingCategory'));
  const categoryName = useSelector(actor, (snapshot) =>
    snapshot.context.categories?.find((category) => category.id === snapshot.context.categoryForm?.categoryId)?.name,
  );
  if (!form) return null;
  const { draft } = form;
  const change = (changes: Partial<CategoryDraft>) => actor.send({ type: 'CHANGE_CATEGORY', changes });
  const isNew = form.categoryId === null;

  return (
    <Drawer isOpen title={isNew ? 'New survey category' : `Edit ${categoryName ?? 'category'}`}
      onOpenChange={(open) => !open && !isSaving && actor.send({ type: 'CANCEL' })}>
      <Form className="lc-admin-form" validationBehavior="aria" onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SAVE' });
      }}>
        <TextInput label="Name" isRequired value={draft.name} onChange={(name) => change({ name })} errorMessage={fieldErrors.name}
          description="As employees see it, e.g. Home / Moving." />
        <TextInput label="Slug" isRequired value={draft.slug} onChange={(slug) => change({ slug })} errorMessage={fieldErrors.slug}
          description={SLUG_DESCRIPTION} />
        <ImageUploadField legend="Image" isDisabled={isSaving}
          current={form.imageUrl ? { url: form.imageUrl, alt: `Current image of ${draft.name}` } : null}
          chooseLabel="Choose an image" replaceLabel="Replace the image" errorMessage={fieldErrors.image_upload_key} upload={upload} />
        {formError && <Message severity="error">{formError}</Message>}
        <div className="lc-admin-actions">
          <Button type="submit" isLoading={isSaving}>
            {isNew ? 'Create category' : 'Save changes'}
          </Button>
          <Button variant="secondary" isDisabled={isSaving} onPress={() => actor.send({ type: 'CANCEL' })}>
            Cancel
          </Button>
        </div>
      </Form>
    </Drawer>
  );
}

function TemplateDetailsDrawer({ actor }: { actor: AdminSurveysActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.templateForm);
  const categories = useSelector(actor, (snapshot) => snapshot.context.categories);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('savingTemplate'));
  const templateName = useSelector(actor, (snapshot) =>
    snapshot.context.templates?.find((template) => template.id === snapshot.context.templateForm?.templateId)?.name,
  );
  if (!form) return null;

  return (
    <Drawer isOpen title={`Edit ${templateName ?? 'template'}`} onOpenChange={(open) => !open && !isSaving && actor.send({ type: 'CANCEL' })}>
      <Form className="lc-admin-form" validationBehavior="aria" onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SAVE' });
      }}>
        <TemplateDetailsFields draft={form.draft} categories={categories ?? []} fieldErrors={fieldErrors} isNew={false}
          onChange={(changes) => actor.send({ type: 'CHANGE_TEMPLATE', changes })} />
        {formError && <Message severity="error">{formError}</Message>}
        <div className="lc-admin-actions">
          <Button type="submit" isLoading={isSaving}>Save changes</Button>
          <Button variant="secondary" isDisabled={isSaving} onPress={() => actor.send({ type: 'CANCEL' })}>
            Cancel
          </Button>
        </div>
      </Form>
    </Drawer>
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
