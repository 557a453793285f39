import type { ActorRefFrom } from 'xstate';
import type { CategoryDraft, adminOfferingCategoriesMachine } from '../../machines/adminOfferingCategories.machine.ts';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, CollectionForm, CollectionFrame, EditButton, MoveButtons, useIsListed } from './AdminCollection.tsx';
import { Cell } from '../../widgets/Table.tsx';
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
            <AdminTable aria-label="Offering categories" columns={['Image', 'Category', 'Offerings']} rowHeader={1} items={categories} dependencies={[canChange, categories.length]} empty="No categories yet. Create the first one.">
              {(category) => (
                <>
                  <Cell>
                    <img className="lc-admin-category__image" src={category.image_url} alt="" width={40} height={40} />
                  </Cell>
                  <Cell>
                    <span className="lc-admin-table__name">{category.name}</span>
                    <span className="lc-admin-table__detail">{category.external_id}</span>
                  </Cell>
                  <Cell>{category.offering_count}</Cell>
                  <ActionsCell>
                    <EditButton actor={actor} itemId={category.id} label={`Edit ${category.name}`} isDisabled={!canChange} />
                    <MoveButtons actor={actor} itemId={category.id} name={category.name} position={category.position}
                      last={categories.length - 1} isDisabled={!canChange} />
                  </ActionsCell>
                </>
              )}
            </AdminTable>
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
