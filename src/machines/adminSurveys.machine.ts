import { type SnapshotFrom, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import {
  type AdminSurveyCategory,
  type AdminTemplate,
  type AdminTemplateSummary,
  type CreateSurveyCategoryRequest,
  type UpdateSurveyCategoryRequest,
  type UpdateTemplateRequest,
  createSurveyCategoryRequest,
  updateSurveyCategoryRequest,
  updateTemplateRequest,
} from '../contract/adminCatalogue.ts';
import { createSurveyCategory, listSurveyCategories, listTemplates, updateSurveyCategory, updateTemplate } from '../services/adminSurveys.ts';
import {
  type FieldErrors,
  IMAGE_STILL_UPLOADING,
  IMAGE_UPLOAD,
  errorOf,
  failureOf,
  fieldErrorsOfIssues,
  withImageForgotten,
  withImageTaken,
  withoutErrorsFor,
  withoutWaitMessage,
} from './adminForms.ts';
import { type UploadActor, type UploadReport, isUploading, uploadMachine } from './upload.machine.ts';

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

/** Which category the form is for: null while creating one. */
export interface CategoryForm {
  categoryId: number | null;
  draft: CategoryDraft;
  /** Leaving a form whose draft differs from it asks first. */
  openedDraft: CategoryDraft;
  /** The category's image as it is now, shown until another is uploaded. */
  imageUrl: string | null;
}

/** A template's details as typed: the slug is given once, when the template is created. */
export interface TemplateDetailsDraft {
  name: string;
  slug: string;
  for_alpha: boolean;
  category_id: number | null;
}

export const EMPTY_TEMPLATE_DETAILS: TemplateDetailsDraft = { name: '', slug: '', for_alpha: true, category_id: null };

export interface TemplateForm {
  templateId: number;
  draft: TemplateDetailsDraft;
  openedDraft: TemplateDetailsDraft;
}

/** Which templates the list shows: all, those of one category, or those outside every category. */
export type CategoryFilter = 'all' | 'none' | number;

export function categoryRequestOf(form: CategoryForm): CreateSurveyCategoryRequest | UpdateSurveyCategoryRequest {
  const { slug, name, image_upload_key: key } = form.draft;
  if (form.categoryId === null) return { slug, name, image_upload_key: key ?? '' };
  return key === null ? { slug, name } : { slug, name, image_upload_key: key };
}

/** The fields an existing template's details form changes (its slug stays). */
export function templateDetailsRequestOf({ name, for_alpha, category_id }: TemplateDetailsDraft): UpdateTemplateRequest {
  return { name, for_alpha, category_id };
}

function checkCategory(form: CategoryForm) {
  return (form.categoryId === null ? createSurveyCategoryRequest : updateSurveyCategoryRequest).safeParse(categoryRequestOf(form));
}

/** The schema's messages, with a plain one for a missing image. */
function categoryFieldErrors(form: CategoryForm): FieldErrors {
  const checked = checkCategory(form);
  if (checked.success) return {};
  const errors = fieldErrorsOfIssues(checked.error.issues);
  if (errors.image_upload_key && form.draft.image_upload_key === null) errors.image_upload_key = CATEGORY_IMAGE_REQUIRED;
  return errors;
}

export function templateSummaryOf({ questions: _questions, ...summary }: AdminTemplate): AdminTemplateSummary {
  return summary;
}

/** The categories with each one's count taken from the templates as they now are (after a template moved). */
function recount(categories: readonly AdminSurveyCategory[], templates: readonly AdminTemplateSummary[]): AdminSurveyCategory[] {
  return categories.map((category) => ({
    ...category,
    template_count: templates.filter((template) => template.category_id === category.id).length,
  }));
}

function replaceById<T extends { id: number }>(list: readonly T[], item: T): T[] {
  return list.some((entry) => entry.id === item.id) ? list.map((entry) => (entry.id === item.id ? item : entry)) : [...list, item];
}

/** A field the user changes no longer carries the message about its old value. */

export interface AdminSurveysContext {
  categories: AdminSurveyCategory[] | null;
  templates: AdminTemplateSummary[] | null;
  loadError: string | null;
  categoryFilter: CategoryFilter;
  categoryForm: CategoryForm | null;
  /** The category form's image uploader, while that form is open. */
  upload: UploadActor | null;
  templateForm: TemplateForm | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  /** What the last change did, e.g. 'Garden saved.'. */
  notice: string | null;
}

export type AdminSurveysEvent =
  | { type: 'RETRY' }
  | { type: 'FILTER'; categoryFilter: CategoryFilter }
  | { type: 'NEW_CATEGORY' }
  | { type: 'EDIT_CATEGORY'; categoryId: number }
  | { type: 'CHANGE_CATEGORY'; changes: Partial<CategoryDraft> }
  /** From the category image's uploader. */
  | UploadReport
  | { type: 'EDIT_TEMPLATE'; templateId: number }
  | { type: 'CHANGE_TEMPLATE'; changes: Partial<TemplateDetailsDraft> }
  | { type: 'SAVE' }
  | { type: 'CANCEL' }
  | { type: 'DISCARD' }
  | { type: 'KEEP_EDITING' };

export interface SurveysCatalogue {
  categories: AdminSurveyCategory[];
  templates: AdminTemplateSummary[];
}

/**
 * The admin's survey catalogue (issue 13): the survey categories with their template counts and the request
 * templates, filtered by category; a form to create or edit a category (its image uploaded in the form) and one to
 * edit a template's details. Both are checked with the contract's schema before they are sent, keep what was typed
 * when the server refuses them, and show the server's message beside each field it names. A template is created,
 * and its questions edited, in the question editor (adminTemplateQuestions.machine.ts).
 */
export const adminSurveysMachine = setup({
  types: {
    context: {} as AdminSurveysContext,
    events: {} as AdminSurveysEvent,
  },
  actors: {
    upload: uploadMachine,
    loadSurveys: fromPromise<SurveysCatalogue>(async () => {
      const [categories, templates] = await Promise.all([listSurveyCategories(), listTemplates()]);
      return { categories, templates };
    }),
    saveCategory: fromPromise<AdminSurveyCategory, { categoryId: number | null; category: CreateSurveyCategoryRequest | UpdateSurveyCategoryRequest }>(
      ({ input }) =>
        input.categoryId === null
          ? createSurveyCategory(input.category as CreateSurveyCategoryRequest)
          : updateSurveyCategory(input.categoryId, input.category),
    ),
    saveTemplate: fromPromise<AdminTemplate, { templateId: number; changes: UpdateTemplateRequest }>(({ input }) =>
      updateTemplate(input.templateId, input.changes),
    ),
  },
  guards: {
    hasUnsavedChanges: ({ context }) => {
      const form = context.categoryForm ?? context.templateForm;
      return form !== null && JSON.stringify(form.draft) !== JSON.stringify(form.openedDraft);
    },
    isCategoryForm: ({ context }) => context.categoryForm !== null,
    isUploadingImage: ({ context }) => context.upload !== null && isUploading(context.upload.getSnapshot()),
    categoryIsValid: ({ context }) => context.categoryForm !== null && checkCategory(context.categoryForm).success,
    templateIsValid: ({ context }) =>
      context.templateForm !== null && updateTemplateRequest.safeParse(templateDetailsRequestOf(context.templateForm.draft)).success,
  },
  actions: {
    storeCatalogue: assign((_, { categories, templates }: SurveysCatalogue) => ({ categories, templates, loadError: null })),
    clearLoadError: assign({ loadError: null }),
    showLoadError: assign({ loadError: SURVEYS_LOAD_ERROR }),
    filter: assign(({ event }) => {
      assertEvent(event, 'FILTER');
      return { categoryFilter: event.categoryFilter, notice: null };
    }),
    openNewCategory: assign({
      categoryForm: { categoryId: null, draft: EMPTY_CATEGORY_DRAFT, openedDraft: EMPTY_CATEGORY_DRAFT, imageUrl: null },
      fieldErrors: {},
      formError: null,
      notice: null,
    }),
    openCategory: assign(({ context, event }) => {
      assertEvent(event, 'EDIT_CATEGORY');
      const category = context.categories?.find((candidate) => candidate.id === event.categoryId);
      if (!category) return {};
      const draft: CategoryDraft = { slug: category.slug, name: category.name, image_upload_key: null };
      const categoryForm: CategoryForm = { categoryId: category.id, draft, openedDraft: draft, imageUrl: category.image_url };
      return { categoryForm, fieldErrors: {}, formError: null, notice: null };
    }),
    changeCategory: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_CATEGORY');
      if (!context.categoryForm) return {};
      const categoryForm = { ...context.categoryForm, draft: { ...context.categoryForm.draft, ...event.changes } };
      return { categoryForm, fieldErrors: withoutErrorsFor(context.fieldErrors, Object.keys(event.changes)) };
    }),
    startImageUpload: assign({ upload: ({ spawn }) => spawn('upload', IMAGE_UPLOAD) }),
    stopImageUpload: enqueueActions(({ enqueue }) => {
      enqueue.stopChild(IMAGE_UPLOAD.id);
      enqueue.assign({ upload: null });
    }),
    takeImage: assign(({ context, event }) => {
      assertEvent(event, 'UPLOADED');
      if (!context.categoryForm) return {};
      const { form: categoryForm, ...messages } = withImageTaken(context.categoryForm, 'image_upload_key', event.key, context, IMAGE_STILL_UPLOADING);
      return { categoryForm, ...messages };
    }),
    askToWaitForImage: assign({ formError: IMAGE_STILL_UPLOADING }),
    stopWaitingForImage: assign(({ context }) => ({ formError: withoutWaitMessage(context.formError, IMAGE_STILL_UPLOADING) })),
    forgetImage: assign(({ context }) => {
      if (!context.categoryForm) return {};
      const { form: categoryForm, fieldErrors } = withImageForgotten(context.categoryForm, 'image_upload_key', context.fieldErrors);
      return { categoryForm, fieldErrors };
    }),
    showInvalidCategory: assign(({ context }) => ({
      fieldErrors: context.categoryForm ? categoryFieldErrors(context.categoryForm) : {},
      formError: null,
    })),
    openTemplate: assign(({ context, event }) => {
      assertEvent(event, 'EDIT_TEMPLATE');
      const template = context.templates?.find((candidate) => candidate.id === event.templateId);
      if (!template) return {};
      const { name, slug, for_alpha, category_id } = template;
      const draft = { name, slug, for_alpha, category_id };
      return { templateForm: { templateId: template.id, draft, openedDraft: draft }, fieldErrors: {}, formError: null, notice: null };
    }),
    changeTemplate: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_TEMPLATE');
      if (!context.templateForm) return {};
      const templateForm = { ...context.templateForm, draft: { ...context.templateForm.draft, ...event.changes } };
      return { templateForm, fieldErrors: withoutErrorsFor(context.fieldErrors, Object.keys(event.changes)) };
    }),
    showInvalidTemplate: assign(({ context }) => {
      const checked = context.templateForm && updateTemplateRequest.safeParse(templateDetailsRequestOf(context.templateForm.draft));
      return { fieldErrors: checked && !checked.success ? fieldErrorsOfIssues(checked.error.issues) : {}, formError: null };
    }),
    clearErrors: assign({ fieldErrors: {}, formError: null }),
    showSaveFailure: assign((_, error: unknown) => failureOf(error)),
    storeCategory: assign(({ context }, category: AdminSurveyCategory) => ({
      categories: replaceById(context.categories ?? [], category),
      categoryForm: null,
      notice: `${category.name} saved.`,
    })),
    storeTemplate: assign(({ context }, template: AdminTemplate) => {
      const templates = replaceById(context.templates ?? [], templateSummaryOf(template));
      return { templates, categories: recount(context.categories ?? [], templates), templateForm: null, notice: `${template.name} saved.` };
    }),
    closeForms: assign({ categoryForm: null, templateForm: null, fieldErrors: {}, formError: null }),
  },
}).createMachine({
  id: 'adminSurveys',
  context: {
    categories: null,
    templates: null,
    loadError: null,
    categoryFilter: 'all',
    categoryForm: null,
    upload: null,
    templateForm: null,
    fieldErrors: {},
    formError: null,
    notice: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearLoadError',
      invoke: {
        id: 'loadSurveys',
        src: 'loadSurveys',
        onDone: { target: 'list', actions: { type: 'storeCatalogue', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    list: {
      // No category form is open: its uploader goes with it.
      entry: 'stopImageUpload',
      on: {
        FILTER: { actions: 'filter' },
        NEW_CATEGORY: { target: 'editingCategory', actions: ['openNewCategory', 'startImageUpload'] },
        EDIT_CATEGORY: { target: 'editingCategory', actions: ['openCategory', 'startImageUpload'] },
        EDIT_TEMPLATE: { target: 'editingTemplate', actions: 'openTemplate' },
      },
    },
    editingCategory: {
      on: {
        CHANGE_CATEGORY: { actions: 'changeCategory' },
        UPLOADED: { actions: 'takeImage' },
        UPLOAD_FAILED: { actions: 'stopWaitingForImage' },
        UPLOAD_CLEARED: { actions: 'forgetImage' },
        SAVE: [
          // The image's key arrives when its upload ends; saving before would drop it.
          { guard: 'isUploadingImage', actions: 'askToWaitForImage' },
          { guard: 'categoryIsValid', target: 'savingCategory', actions: 'clearErrors' },
          { actions: 'showInvalidCategory' },
        ],
        CANCEL: [{ guard: 'hasUnsavedChanges', target: 'confirmingDiscard' }, { target: 'list', actions: 'closeForms' }],
      },
    },
    /** Nothing typed is lost unasked: leaving a changed form asks first. */
    confirmingDiscard: {
      on: {
        DISCARD: { target: 'list', actions: 'closeForms' },
        KEEP_EDITING: [{ guard: 'isCategoryForm', target: 'editingCategory' }, { target: 'editingTemplate' }],
      },
    },
    savingCategory: {
      tags: 'busy',
      invoke: {
        id: 'saveCategory',
        src: 'saveCategory',
        input: ({ context }) => {
          const form = context.categoryForm ?? { categoryId: null, draft: EMPTY_CATEGORY_DRAFT, openedDraft: EMPTY_CATEGORY_DRAFT, imageUrl: null };
          return { categoryId: form.categoryId, category: categoryRequestOf(form) };
        },
        onDone: { target: 'list', actions: { type: 'storeCategory', params: ({ event }) => event.output } },
        onError: { target: 'editingCategory', actions: { type: 'showSaveFailure', params: errorOf } },
      },
    },
    editingTemplate: {
      on: {
        CHANGE_TEMPLATE: { actions: 'changeTemplate' },
        SAVE: [{ guard: 'templateIsValid', target: 'savingTemplate', actions: 'clearErrors' }, { actions: 'showInvalidTemplate' }],
        CANCEL: [{ guard: 'hasUnsavedChanges', target: 'confirmingDiscard' }, { target: 'list', actions: 'closeForms' }],
      },
    },
    savingTemplate: {
      tags: 'busy',
      invoke: {
        id: 'saveTemplate',
        src: 'saveTemplate',
        input: ({ context }) => ({
          templateId: context.templateForm?.templateId ?? 0,
          changes: templateDetailsRequestOf(context.templateForm?.draft ?? EMPTY_TEMPLATE_DETAILS),
        }),
        onDone: { target: 'list', actions: { type: 'storeTemplate', params: ({ event }) => event.output } },
        onError: { target: 'editingTemplate', actions: { type: 'showSaveFailure', params: errorOf } },
      },
    },
  },
});

export type AdminSurveysSnapshot = SnapshotFrom<typeof adminSurveysMachine>;
