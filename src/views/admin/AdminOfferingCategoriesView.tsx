import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { CategoryDraft, adminOfferingCategoriesMachine } from '../../machines/adminOfferingCategories.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Form } from '../../widgets/Form.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { AdminListFrame, ImageUploadField } from './AdminParts.tsx';
import './adminOfferings.css';

export type AdminOfferingCategoriesActor = ActorRefFrom<typeof adminOfferingCategoriesMachine>;

/** Offering categories: the employees' filter bar in its order, each moved up or down, and the form to create or edit one. */
export function AdminOfferingCategoriesView({ categories: actor }: { categories: AdminOfferingCategoriesActor }) {
  const categories = useSelector(actor, (snapshot) => snapshot.context.categories);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  const refusal = useSelector(actor, (snapshot) => snapshot.context.refusal);
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const canChange = useSelector(actor, (snapshot) => snapshot.matches('list'));
  const last = (categories?.length ?? 0) - 1;

  return (
    <AdminListFrame heading="Offering categories" isBusy={isBusy} loadError={loadError} onRetry={() => actor.send({ type: 'RETRY' })}
      notice={notice} refusal={refusal} isLoaded={categories !== null}
      action={<Button onPress={() => actor.send({ type: 'NEW' })} isDisabled={!canChange}>New category</Button>}>
      {categories && (
        <div className="lc-admin-offerings__scroll">
          <Table aria-label="Offering categories" className="lc-admin-table">
            <TableHeader>
              <Column>Image</Column>
              <Column isRowHeader>Category</Column>
              <Column>Offerings</Column>
              <Column>
                <span className="lc-visually-hidden">Actions</span>
              </Column>
            </TableHeader>
            <TableBody items={categories} dependencies={[canChange, last]}
              renderEmptyState={() => <p className="lc-admin-empty">No categories yet. Create the first one.</p>}>
              {(category) => (
                <Row id={category.id}>
                  <Cell>
                    <img className="lc-admin-category__image" src={category.image_url} alt="" width={40} height={40} />
                  </Cell>
                  <Cell>
                    <span className="lc-admin-table__name">{category.name}</span>
                    <span className="lc-admin-table__detail">{category.external_id}</span>
                  </Cell>
                  <Cell>{category.offering_count}</Cell>
                  <Cell>
                    <div className="lc-admin-actions">
                      <Button variant="secondary" aria-label={`Edit ${category.name}`} isDisabled={!canChange}
                        onPress={() => actor.send({ type: 'EDIT', categoryId: category.id })}>
                        Edit
                      </Button>
                      <Button variant="tertiary" aria-label={`Move ${category.name} up`} isDisabled={!canChange || category.position === 0}
                        onPress={() => actor.send({ type: 'MOVE', categoryId: category.id, by: -1 })}>
                        Up
                      </Button>
                      <Button variant="tertiary" aria-label={`Move ${category.name} down`} isDisabled={!canChange || category.position === last}
                        onPress={() => actor.send({ type: 'MOVE', categoryId: category.id, by: 1 })}>
                        Down
                      </Button>
                    </div>
                  </Cell>
                </Row>
              )}
            </TableBody>
          </Table>
        </div>
      )}
      <CategoryFormDrawer actor={actor} />
    </AdminListFrame>
  );
}

function CategoryFormDrawer({ actor }: { actor: AdminOfferingCategoriesActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.form);
  const upload = useSelector(actor, (snapshot) => snapshot.context.upload);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const savedName = useSelector(actor, (snapshot) =>
    snapshot.context.categories?.find((category) => category.id === snapshot.context.form?.categoryId)?.name,
  );
  if (!form) return null;
  const { draft } = form;
  const change = (changes: Partial<CategoryDraft>) => actor.send({ type: 'CHANGE', changes });

  return (
    <Drawer isOpen title={form.categoryId === null ? 'New category' : `Edit ${savedName ?? 'category'}`}
      onOpenChange={(open) => !open && !isSaving && actor.send({ type: 'CANCEL' })}>
      <Form className="lc-admin-form" validationBehavior="aria" onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SAVE' });
      }}>
        <TextInput label="Name" isRequired value={draft.name} onChange={(name) => change({ name })} errorMessage={fieldErrors.name}
          description="As the filter bar shows it. A new name shows on employees' next visit." />
        <TextInput label="External id" isRequired value={draft.external_id} onChange={(id) => change({ external_id: id })}
          errorMessage={fieldErrors.external_id} description="Lower-case letters, digits and hyphens, e.g. health." />
        <ImageUploadField legend="Image" chooseLabel="Choose an image" replaceLabel="Replace the image" isDisabled={isSaving}
          errorMessage={fieldErrors.image_upload_key}
          current={form.imageUrl ? { url: form.imageUrl, alt: `Current image of ${draft.name}` } : null} upload={upload} />
        {formError && <Message severity="error">{formError}</Message>}
        <div className="lc-admin-actions">
          <Button type="submit" isLoading={isSaving}>{form.categoryId === null ? 'Create category' : 'Save changes'}</Button>
          <Button variant="secondary" isDisabled={isSaving} onPress={() => actor.send({ type: 'CANCEL' })}>Cancel</Button>
        </div>
      </Form>
    </Drawer>
  );
}
