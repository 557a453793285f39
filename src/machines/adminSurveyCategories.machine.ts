import type { SnapshotFrom } from 'xstate';
import {
  type AdminSurveyCategory,
  type CreateSurveyCategoryRequest,
  type UpdateSurveyCategoryRequest,
  createSurveyCategoryRequest,
  updateSurveyCategoryRequest,
} from '../contract/adminCatalogue.ts';
import { createSurveyCategory, listSurveyCategories, updateSurveyCategory } from '../services/adminSurveys.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import { type FieldErrors, IMAGE_STILL_UPLOADING } from './adminForms.ts';

/** The surveys screen's one message for either of its lists. */
export const SURVEYS_LOAD_ERROR = "We couldn't load the survey categories and templates. Please try again.";
export const CATEGORY_IMAGE_REQUIRED = 'Choose an image for the category.';

/** The survey category form as typed. */
export interface CategoryDraft {
  slug: string;
  name: string;
  /** The key of an image uploaded in this form; null keeps the category's image (a new category needs one). */
  image_upload_key: string | null;
}

export const EMPTY_CATEGORY_DRAFT: CategoryDraft = { slug: '', name: '', image_upload_key: null };

export function categoryRequestOf(draft: CategoryDraft, isNew: boolean): CreateSurveyCategoryRequest | UpdateSurveyCategoryRequest {
  const { slug, name, image_upload_key: key } = draft;
  if (isNew) return { slug, name, image_upload_key: key ?? '' };
  return key === null ? { slug, name } : { slug, name, image_upload_key: key };
}

/** The schema's messages, with a plain one for a missing image. */
function categoryMessages(errors: FieldErrors, draft: CategoryDraft): FieldErrors {
  return errors.image_upload_key && draft.image_upload_key === null ? { ...errors, image_upload_key: CATEGORY_IMAGE_REQUIRED } : errors;
}

/**
 * The survey categories of the surveys screen (issue 13), with their images: a form to create or edit one, its image
 * uploaded in the form. The screen's other list is adminSurveyTemplates.machine.ts.
 */
export const adminSurveyCategoriesMachine = adminCollectionMachine({
  id: 'adminSurveyCategories',
  loadError: SURVEYS_LOAD_ERROR,
  list: listSurveyCategories,
  order: { asListed: true },
  nameOf: (category: AdminSurveyCategory) => category.name,
  form: {
    empty: EMPTY_CATEGORY_DRAFT,
    draftOf: (category): CategoryDraft => ({ slug: category.slug, name: category.name, image_upload_key: null }),
    schema: (isNew) => (isNew ? createSurveyCategoryRequest : updateSurveyCategoryRequest),
    requestOf: categoryRequestOf,
    create: (request) => createSurveyCategory(createSurveyCategoryRequest.parse(request)),
    update: updateSurveyCategory,
    messagesOf: categoryMessages,
    image: { keyField: 'image_upload_key', stillUploading: IMAGE_STILL_UPLOADING, urlOf: (category) => category.image_url },
  },
});

export type AdminSurveyCategoriesSnapshot = SnapshotFrom<typeof adminSurveyCategoriesMachine>;
