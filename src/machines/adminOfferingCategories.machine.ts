import type { SnapshotFrom } from 'xstate';
import {
  type AdminOfferingCategory,
  type UpdateOfferingCategoryRequest,
  createOfferingCategoryRequest,
  updateOfferingCategoryRequest,
} from '../contract/adminCatalogue.ts';
import { createOfferingCategory, listOfferingCategories, moveOfferingCategory, updateOfferingCategory } from '../services/adminOfferings.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import { type FieldErrors, IMAGE_STILL_UPLOADING } from './adminForms.ts';

export const CATEGORIES_LOAD_ERROR = "We couldn't load the offering categories. Please try again.";
export const IMAGE_NEEDED = 'Choose an image for the filter bar';

/** The category form as typed; the image is the key of one uploaded here, or null to keep the category's own. */
export interface CategoryDraft {
  name: string;
  external_id: string;
  image_upload_key: string | null;
}

export const EMPTY_CATEGORY_DRAFT: CategoryDraft = { name: '', external_id: '', image_upload_key: null };

/** What a save sends: the image only when one was uploaded (a category of the seed has none to send). */
export function categoryRequestOf(draft: CategoryDraft): UpdateOfferingCategoryRequest {
  const { image_upload_key: imageKey, ...fields } = draft;
  return imageKey === null ? fields : { ...fields, image_upload_key: imageKey };
}

/** The schema's message is about a missing text: the admin is missing a picture. */
function categoryMessages(errors: FieldErrors, draft: CategoryDraft): FieldErrors {
  return errors.image_upload_key && draft.image_upload_key === null ? { ...errors, image_upload_key: IMAGE_NEEDED } : errors;
}

/**
 * The offering categories of the employees' filter bar (issue 13), in its order: each moved up or down; a form to
 * create or rename one and upload its image (through the uploads route, as a company's logo).
 */
export const adminOfferingCategoriesMachine = adminCollectionMachine({
  id: 'adminOfferingCategories',
  loadError: CATEGORIES_LOAD_ERROR,
  list: listOfferingCategories,
  order: { ranked: true },
  nameOf: (category: AdminOfferingCategory) => category.name,
  form: {
    empty: EMPTY_CATEGORY_DRAFT,
    draftOf: (category): CategoryDraft => ({ name: category.name, external_id: category.external_id, image_upload_key: null }),
    schema: (isNew) => (isNew ? createOfferingCategoryRequest : updateOfferingCategoryRequest),
    requestOf: categoryRequestOf,
    create: (request) => createOfferingCategory(createOfferingCategoryRequest.parse(request)),
    update: updateOfferingCategory,
    messagesOf: categoryMessages,
    image: { keyField: 'image_upload_key', stillUploading: IMAGE_STILL_UPLOADING, urlOf: (category) => category.image_url },
  },
  move: moveOfferingCategory,
});

export type AdminOfferingCategoriesSnapshot = SnapshotFrom<typeof adminOfferingCategoriesMachine>;
