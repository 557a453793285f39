import type { ActorRefFrom } from 'xstate';
import type { CategoryDraft, adminOfferingCategoriesMachine } from '../../machines/adminOfferingCategories.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { CollectionForm, CollectionFrame, MoveButtons, useIsListed } from './AdminCollection.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { ImageUploadField } from './AdminParts.tsx';
import './adminOfferings.css';

export type AdminOfferingCategoriesActor = ActorRefFrom<typeof adminOfferingCategoriesMachine>;

/** Offering categories: the employees' filter bar in its order, each moved up or down, and the form to create or edit one. */
export function AdminOfferingCategoriesView({ categories: actor }: { categories: AdminOfferingCategoriesActor }) {
  const canChange = useIsListed(actor);
  return (
    <CollectionFrame actor={actor} heading="Offering categories" newLabel="New category">
      {(categories) => (
        <>
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
              <TableBody items={categories} dependencies={[canChange, categories.length]}
                renderEmptyState={() => <p className="lc-admin-empty">No categories yet. Create the first one.</p>}>
                {(category) => (
                  <Row id={category.id} className="lc-admin-table__row">
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
                          onPress={() => actor.send({ type: 'EDIT', itemId: category.id })}>
                          Edit
                        </Button>
                        <MoveButtons actor={actor} itemId={category.id} name={category.name} position={category.position}
                          last={categories.length - 1} isDisabled={!canChange} />
                      </div>
                    </Cell>
                  </Row>
                )}
              </TableBody>
            </Table>
          </div>
          <CategoryForm actor={actor} />
        </>
      )}
    </CollectionFrame>
  );
}

function CategoryForm({ actor }: { actor: AdminOfferingCategoriesActor }) {
  return (
    <CollectionForm<CategoryDraft> actor={actor} noun="category">
      {(draft, fieldErrors, isSaving, change) => (
        <>
          <TextInput label="Name" isRequired value={draft.name} onChange={(name) => change({ name })} errorMessage={fieldErrors.name}
            description="As the filter bar shows it. A new name shows on employees' next visit." />
          <TextInput label="External id" isRequired value={draft.external_id} onChange={(id) => change({ external_id: id })}
            errorMessage={fieldErrors.external_id} description="Lower-case letters, digits and hyphens, e.g. health." />
          <ImageUploadField legend="Image" chooseLabel="Choose an image" replaceLabel="Replace the image" isDisabled={isSaving}
            errorMessage={fieldErrors.image_upload_key} actor={actor} alt={`Current image of ${draft.name}`} />
        </>
      )}
    </CollectionForm>
  );
}
