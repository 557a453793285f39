import { type SnapshotFrom, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import {
  type AdminOfferingCategory,
  type UpdateOfferingCategoryRequest,
  createOfferingCategoryRequest,
  updateOfferingCategoryRequest,
} from '../contract/adminCatalogue.ts';
import { createOfferingCategory, listOfferingCategories, moveOfferingCategory, updateOfferingCategory } from '../services/adminOfferings.ts';
import {
  type FieldErrors,
  IMAGE_STILL_UPLOADING,
  IMAGE_UPLOAD,
  errorOf,
  failureOf,
  fieldErrorsOfIssues,
  refusalOf,
  withImageForgotten,
  withImageTaken,
  withoutErrorsFor,
  withoutWaitMessage,
} from './adminForms.ts';
import { placedInOrder, ranked } from './adminOfferings.machine.ts';
import { type UploadActor, type UploadReport, isUploading, uploadMachine } from './upload.machine.ts';

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

/** Which category the form is for: null while creating one. */
export interface CategoryForm {
  categoryId: number | null;
  draft: CategoryDraft;
  /** The category's image as it is now, shown until a new one is uploaded (the uploader then shows that one). */
  imageUrl: string | null;
}

function checkForm(form: CategoryForm): FieldErrors {
  const request = categoryRequestOf(form.draft);
  const checked = form.categoryId === null ? createOfferingCategoryRequest.safeParse(request) : updateOfferingCategoryRequest.safeParse(request);
  if (checked.success) return {};
  const errors = fieldErrorsOfIssues(checked.error.issues);
  // The schema's message is about a missing text: the admin is missing a picture.
  return errors.image_upload_key && form.draft.image_upload_key === null ? { ...errors, image_upload_key: IMAGE_NEEDED } : errors;
}

export interface AdminOfferingCategoriesContext {
  categories: AdminOfferingCategory[] | null;
  loadError: string | null;
  form: CategoryForm | null;
  /** The form's image uploader, while the form is open. */
  upload: UploadActor | null;
  /** The move being sent: the category and its new 0-based place. */
  moving: { categoryId: number; position: number } | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  notice: string | null;
  /** Why the last move failed. */
  refusal: string | null;
}

export type AdminOfferingCategoriesEvent =
  | { type: 'RETRY' }
  | { type: 'NEW' }
  | { type: 'EDIT'; categoryId: number }
  | { type: 'MOVE'; categoryId: number; by: -1 | 1 }
  | { type: 'CHANGE'; changes: Partial<CategoryDraft> }
  /** From the image's uploader. */
  | UploadReport
  | { type: 'SAVE' }
  | { type: 'CANCEL' };

const saveCategoryLogic = fromPromise<AdminOfferingCategory, { categoryId: number | null; draft: CategoryDraft }>(({ input }) => {
  const request = categoryRequestOf(input.draft);
  return input.categoryId === null
    ? createOfferingCategory(createOfferingCategoryRequest.parse(request))
    : updateOfferingCategory(input.categoryId, request);
});

/**
 * The offering categories of the employees' filter bar (issue 13), in its order: each moved up or down; a form to
 * create or rename one and upload its image (through the uploads route, as a company's logo), checked with the
 * contract's schema before it is sent and keeping what was typed when the server refuses it.
 */
export const adminOfferingCategoriesMachine = setup({
  types: {
    context: {} as AdminOfferingCategoriesContext,
    events: {} as AdminOfferingCategoriesEvent,
  },
  actors: {
    upload: uploadMachine,
    listCategories: fromPromise<AdminOfferingCategory[]>(() => listOfferingCategories()),
    saveCategory: saveCategoryLogic,
    moveCategory: fromPromise<AdminOfferingCategory, { categoryId: number; position: number }>(({ input }) =>
      moveOfferingCategory(input.categoryId, input.position),
    ),
  },
  guards: {
    isValid: ({ context }) => context.form !== null && Object.keys(checkForm(context.form)).length === 0,
    isUploadingImage: ({ context }) => context.upload !== null && isUploading(context.upload.getSnapshot()),
    canMove: ({ context, event }) => {
      assertEvent(event, 'MOVE');
      const category = context.categories?.find((candidate) => candidate.id === event.categoryId);
      const position = (category?.position ?? -1) + event.by;
      return category !== undefined && position >= 0 && position < (context.categories?.length ?? 0);
    },
  },
  actions: {
    storeCategories: assign((_, categories: AdminOfferingCategory[]) => ({ categories: ranked(categories), loadError: null })),
    clearLoadError: assign({ loadError: null }),
    showLoadError: assign({ loadError: CATEGORIES_LOAD_ERROR }),
    openNewForm: assign({
      form: { categoryId: null, draft: EMPTY_CATEGORY_DRAFT, imageUrl: null },
      fieldErrors: {},
      formError: null,
      notice: null,
      refusal: null,
    }),
    openEditForm: assign(({ context, event }) => {
      assertEvent(event, 'EDIT');
      const category = context.categories?.find((candidate) => candidate.id === event.categoryId);
      if (!category) return {};
      const draft: CategoryDraft = { name: category.name, external_id: category.external_id, image_upload_key: null };
      const form: CategoryForm = { categoryId: category.id, draft, imageUrl: category.image_url };
      return { form, fieldErrors: {}, formError: null, notice: null, refusal: null };
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      if (!context.form) return {};
      const fieldErrors = withoutErrorsFor(context.fieldErrors, Object.keys(event.changes));
      return { form: { ...context.form, draft: { ...context.form.draft, ...event.changes } }, fieldErrors };
    }),
    startImageUpload: assign({ upload: ({ spawn }) => spawn('upload', IMAGE_UPLOAD) }),
    stopImageUpload: enqueueActions(({ enqueue }) => {
      enqueue.stopChild(IMAGE_UPLOAD.id);
      enqueue.assign({ upload: null });
    }),
    askToWaitForImage: assign({ formError: IMAGE_STILL_UPLOADING }),
    takeImage: assign(({ context, event }) => {
      assertEvent(event, 'UPLOADED');
      return context.form ? withImageTaken(context.form, 'image_upload_key', event.key, context, IMAGE_STILL_UPLOADING) : {};
    }),
    stopWaitingForImage: assign(({ context }) => ({ formError: withoutWaitMessage(context.formError, IMAGE_STILL_UPLOADING) })),
    forgetImage: assign(({ context }) => (context.form ? withImageForgotten(context.form, 'image_upload_key', context.fieldErrors) : {})),
    showInvalidFields: assign(({ context }) => (context.form ? { fieldErrors: checkForm(context.form), formError: null } : {})),
    clearErrors: assign({ fieldErrors: {}, formError: null }),
    showSaveFailure: assign((_, error: unknown) => failureOf(error)),
    storeSaved: assign(({ context }, category: AdminOfferingCategory) => ({
      categories: placedInOrder(context.categories ?? [], category),
      form: null,
      notice: `${category.name} saved.`,
    })),
    closeForm: assign({ form: null, fieldErrors: {}, formError: null }),
    startMove: assign(({ context, event }) => {
      assertEvent(event, 'MOVE');
      const position = (context.categories?.find((category) => category.id === event.categoryId)?.position ?? 0) + event.by;
      return { moving: { categoryId: event.categoryId, position }, notice: null, refusal: null };
    }),
    storeMoved: assign(({ context }, category: AdminOfferingCategory) => ({
      categories: placedInOrder(context.categories ?? [], category, category.position),
      moving: null,
      notice: `${category.name} moved to place ${category.position + 1}.`,
    })),
    showMoveRefusal: assign((_, error: unknown) => ({ moving: null, refusal: refusalOf(error) })),
  },
}).createMachine({
  id: 'adminOfferingCategories',
  context: { categories: null, loadError: null, form: null, upload: null, moving: null, fieldErrors: {}, formError: null, notice: null, refusal: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearLoadError',
      invoke: {
        id: 'listCategories',
        src: 'listCategories',
        onDone: { target: 'list', actions: { type: 'storeCategories', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    list: {
      // No form is open: its uploader goes with it.
      entry: 'stopImageUpload',
      on: {
        NEW: { target: 'editing', actions: ['openNewForm', 'startImageUpload'] },
        EDIT: { target: 'editing', actions: ['openEditForm', 'startImageUpload'] },
        MOVE: { guard: 'canMove', target: 'moving', actions: 'startMove' },
      },
    },
    editing: {
      on: {
        CHANGE: { actions: 'change' },
        UPLOADED: { actions: 'takeImage' },
        UPLOAD_FAILED: { actions: 'stopWaitingForImage' },
        UPLOAD_CLEARED: { actions: 'forgetImage' },
        SAVE: [
          // The image's key arrives when its upload ends; saving before would drop it.
          { guard: 'isUploadingImage', actions: 'askToWaitForImage' },
          { guard: 'isValid', target: 'saving', actions: 'clearErrors' },
          { actions: 'showInvalidFields' },
        ],
        CANCEL: { target: 'list', actions: 'closeForm' },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveCategory',
        src: 'saveCategory',
        input: ({ context }) => ({ categoryId: context.form?.categoryId ?? null, draft: context.form?.draft ?? EMPTY_CATEGORY_DRAFT }),
        onDone: { target: 'list', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        onError: { target: 'editing', actions: { type: 'showSaveFailure', params: errorOf } },
      },
    },
    moving: {
      tags: 'busy',
      invoke: {
        id: 'moveCategory',
        src: 'moveCategory',
        input: ({ context }) => context.moving ?? { categoryId: 0, position: 0 },
        onDone: { target: 'list', actions: { type: 'storeMoved', params: ({ event }) => event.output } },
        onError: { target: 'list', actions: { type: 'showMoveRefusal', params: errorOf } },
      },
    },
  },
});

export type AdminOfferingCategoriesSnapshot = SnapshotFrom<typeof adminOfferingCategoriesMachine>;
