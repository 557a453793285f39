import { type SnapshotFrom, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { type AdminCompany, type CreateCompanyRequest, type MfaPolicy, createCompanyRequest } from '../contract/admin.ts';
import { createCompany, listCompanies, setCompanyActive, updateCompany } from '../services/admin.ts';
import {
  type FieldErrors,
  IMAGE_UPLOAD,
  errorOf,
  failureOf,
  fieldErrorsOfIssues,
  refusalOf,
  upsertSorted,
  withImageForgotten,
  withImageTaken,
  withoutErrorsFor,
  withoutWaitMessage,
} from './adminForms.ts';
import { type UploadActor, type UploadReport, isUploading, uploadMachine } from './upload.machine.ts';

export const COMPANIES_LOAD_ERROR = "We couldn't load the companies. Please try again.";
export const LOGO_STILL_UPLOADING = 'Please wait until the logo has uploaded.';

/** The company form as typed: e-mail domains are one text, split at spaces, commas and new lines. */
export interface CompanyDraft {
  name: string;
  slug: string;
  mfa_policy: MfaPolicy;
  email_domains: string;
  internal_staff: boolean;
  /** The uploaded logo's key; null for no logo, or the logo the company has when it was not set in the console. */
  logo_upload_key: string | null;
}

export const EMPTY_COMPANY_DRAFT: CompanyDraft = {
  name: '',
  slug: '',
  mfa_policy: 'off',
  email_domains: '',
  internal_staff: false,
  logo_upload_key: null,
};

export function draftOf(company: AdminCompany): CompanyDraft {
  return {
    name: company.name,
    slug: company.slug,
    mfa_policy: company.mfa_policy,
    email_domains: company.email_domains.join('\n'),
    internal_staff: company.internal_staff,
    logo_upload_key: company.logo_upload_key,
  };
}

export function domainsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export function companyRequestOf(draft: CompanyDraft): CreateCompanyRequest {
  return { ...draft, email_domains: domainsOf(draft.email_domains) };
}

/** One message per form field: a refused domain ('email_domains.2') is named on the domains field. */
export function companyFieldErrors(fields: FieldErrors, draft: CompanyDraft): FieldErrors {
  const domains = domainsOf(draft.email_domains);
  const errors: FieldErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const [field, index] = path.split('.');
    const domain = index === undefined ? undefined : domains[Number(index)];
    errors[field] ??= domain === undefined ? message : `${domain}: ${message}`;
  }
  return errors;
}

/** Which company the form is for: null while creating one. */
export interface CompanyForm {
  companyId: number | null;
  draft: CompanyDraft;
  /** The company's logo as it is now (shown until the form removes or replaces it). */
  imageUrl: string | null;
}

export interface AdminCompaniesContext {
  companies: AdminCompany[] | null;
  loadError: string | null;
  form: CompanyForm | null;
  /** The form's logo uploader, while the form is open. */
  upload: UploadActor | null;
  /** The company whose deactivation or reactivation awaits confirmation (or is being sent). */
  toggling: AdminCompany | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  /** What the last change did, e.g. 'Acme saved.'. */
  notice: string | null;
}

export type AdminCompaniesEvent =
  | { type: 'RETRY' }
  | { type: 'NEW' }
  | { type: 'EDIT'; companyId: number }
  | { type: 'CHANGE'; changes: Partial<CompanyDraft> }
  /** From the logo's uploader. */
  | UploadReport
  | { type: 'SAVE' }
  | { type: 'CANCEL' }
  | { type: 'TOGGLE_ACTIVE'; companyId: number }
  | { type: 'CONFIRM' };

export interface SaveCompanyInput {
  companyId: number | null;
  company: CreateCompanyRequest;
}

const saveCompanyLogic = fromPromise<AdminCompany, SaveCompanyInput>(({ input }) =>
  input.companyId === null ? createCompany(input.company) : updateCompany(input.companyId, input.company),
);

const byName = (company: AdminCompany) => company.name;

/**
 * The admin's companies (issue 13): the list with each company's employee count; a form to create or edit one,
 * checked with the contract's schema before it is sent, that keeps what was typed when the server refuses it and
 * shows the server's message beside each field it names; deactivation and reactivation after a confirmation.
 */
export const adminCompaniesMachine = setup({
  types: {
    context: {} as AdminCompaniesContext,
    events: {} as AdminCompaniesEvent,
  },
  actors: {
    upload: uploadMachine,
    listCompanies: fromPromise<AdminCompany[]>(() => listCompanies()),
    saveCompany: saveCompanyLogic,
    setCompanyActive: fromPromise<AdminCompany, { companyId: number; active: boolean }>(({ input }) =>
      setCompanyActive(input.companyId, input.active),
    ),
  },
  guards: {
    isValid: ({ context }) => context.form !== null && createCompanyRequest.safeParse(companyRequestOf(context.form.draft)).success,
    isUploadingLogo: ({ context }) => context.upload !== null && isUploading(context.upload.getSnapshot()),
  },
  actions: {
    storeCompanies: assign((_, companies: AdminCompany[]) => ({ companies, loadError: null })),
    clearLoadError: assign({ loadError: null }),
    showLoadError: assign({ loadError: COMPANIES_LOAD_ERROR }),
    openNewForm: assign({
      form: { companyId: null, draft: EMPTY_COMPANY_DRAFT, imageUrl: null },
      fieldErrors: {},
      formError: null,
      notice: null,
    }),
    openEditForm: assign(({ context, event }) => {
      assertEvent(event, 'EDIT');
      const company = context.companies?.find((candidate) => candidate.id === event.companyId);
      if (!company) return {};
      const form: CompanyForm = { companyId: company.id, draft: draftOf(company), imageUrl: company.image_url };
      return { form, fieldErrors: {}, formError: null, notice: null };
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      if (!context.form) return {};
      // A field the user changes no longer carries the message about its old value.
      const fieldErrors = withoutErrorsFor(context.fieldErrors, Object.keys(event.changes));
      const changesLogo = 'logo_upload_key' in event.changes;
      const form = {
        ...context.form,
        draft: { ...context.form.draft, ...event.changes },
        imageUrl: changesLogo ? null : context.form.imageUrl,
      };
      return { form, fieldErrors };
    }),
    startLogoUpload: assign({ upload: ({ spawn }) => spawn('upload', IMAGE_UPLOAD) }),
    stopLogoUpload: enqueueActions(({ enqueue }) => {
      enqueue.stopChild(IMAGE_UPLOAD.id);
      enqueue.assign({ upload: null });
    }),
    askToWaitForLogo: assign({ formError: LOGO_STILL_UPLOADING }),
    takeLogo: assign(({ context, event }) => {
      assertEvent(event, 'UPLOADED');
      return context.form ? withImageTaken(context.form, 'logo_upload_key', event.key, context, LOGO_STILL_UPLOADING) : {};
    }),
    stopWaitingForLogo: assign(({ context }) => ({ formError: withoutWaitMessage(context.formError, LOGO_STILL_UPLOADING) })),
    forgetLogo: assign(({ context }) => (context.form ? withImageForgotten(context.form, 'logo_upload_key', context.fieldErrors) : {})),
    showInvalidFields: assign(({ context }) => {
      if (!context.form) return {};
      const checked = createCompanyRequest.safeParse(companyRequestOf(context.form.draft));
      const fields = checked.success ? {} : fieldErrorsOfIssues(checked.error.issues);
      return { fieldErrors: companyFieldErrors(fields, context.form.draft), formError: null };
    }),
    clearErrors: assign({ fieldErrors: {}, formError: null }),
    showSaveFailure: assign(({ context }, error: unknown) => {
      const { fieldErrors, formError } = failureOf(error);
      return { fieldErrors: context.form ? companyFieldErrors(fieldErrors, context.form.draft) : fieldErrors, formError };
    }),
    showRefusal: assign((_, error: unknown) => ({ formError: refusalOf(error) })),
    storeSaved: assign(({ context }, company: AdminCompany) => ({
      companies: upsertSorted(context.companies ?? [], company, byName),
      form: null,
      toggling: null,
      notice: `${company.name} saved.`,
    })),
    storeToggled: assign(({ context }, company: AdminCompany) => ({
      companies: upsertSorted(context.companies ?? [], company, byName),
      toggling: null,
      notice: `${company.name} ${company.active ? 'reactivated' : 'deactivated'}.`,
    })),
    closeForm: assign({ form: null, toggling: null, fieldErrors: {}, formError: null }),
    askToToggle: assign(({ context, event }) => {
      assertEvent(event, 'TOGGLE_ACTIVE');
      const company = context.companies?.find((candidate) => candidate.id === event.companyId) ?? null;
      return { toggling: company, formError: null, notice: null };
    }),
  },
}).createMachine({
  id: 'adminCompanies',
  context: { companies: null, loadError: null, form: null, upload: null, toggling: null, fieldErrors: {}, formError: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearLoadError',
      invoke: {
        id: 'listCompanies',
        src: 'listCompanies',
        onDone: { target: 'list', actions: { type: 'storeCompanies', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    list: {
      // No form is open: its uploader goes with it.
      entry: 'stopLogoUpload',
      on: {
        NEW: { target: 'editing', actions: ['openNewForm', 'startLogoUpload'] },
        EDIT: { target: 'editing', actions: ['openEditForm', 'startLogoUpload'] },
        TOGGLE_ACTIVE: { target: 'confirming', actions: 'askToToggle' },
      },
    },
    editing: {
      on: {
        CHANGE: { actions: 'change' },
        UPLOADED: { actions: 'takeLogo' },
        UPLOAD_FAILED: { actions: 'stopWaitingForLogo' },
        UPLOAD_CLEARED: { actions: 'forgetLogo' },
        SAVE: [
          // The logo's key arrives when its upload ends; saving before would drop it.
          { guard: 'isUploadingLogo', actions: 'askToWaitForLogo' },
          { guard: 'isValid', target: 'saving', actions: 'clearErrors' },
          { actions: 'showInvalidFields' },
        ],
        CANCEL: { target: 'list', actions: 'closeForm' },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveCompany',
        src: 'saveCompany',
        input: ({ context }) => ({
          companyId: context.form?.companyId ?? null,
          company: companyRequestOf(context.form?.draft ?? EMPTY_COMPANY_DRAFT),
        }),
        onDone: { target: 'list', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        onError: { target: 'editing', actions: { type: 'showSaveFailure', params: errorOf } },
      },
    },
    confirming: {
      on: {
        CONFIRM: { target: 'toggling', actions: 'clearErrors' },
        CANCEL: { target: 'list', actions: 'closeForm' },
      },
    },
    toggling: {
      tags: 'busy',
      invoke: {
        id: 'setCompanyActive',
        src: 'setCompanyActive',
        input: ({ context }) => ({ companyId: context.toggling?.id ?? 0, active: context.toggling?.active === false }),
        onDone: { target: 'list', actions: { type: 'storeToggled', params: ({ event }) => event.output } },
        onError: { target: 'confirming', actions: { type: 'showRefusal', params: errorOf } },
      },
    },
  },
});

export type AdminCompaniesSnapshot = SnapshotFrom<typeof adminCompaniesMachine>;
