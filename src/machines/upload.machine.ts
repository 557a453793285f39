import { type ActorRefFrom, type SnapshotFrom, assertEvent, assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import { MAX_UPLOAD_BYTES, type PresignedUrlResponse, fileSize, isSafeUploadType } from '../contract/uploads.ts';
import { reportError } from '../services/errorReporting.ts';
import { isAbortError, isHTTPError } from '../services/http.ts';
import { type UploadFileOptions, requestPresignedUrl, uploadFile } from '../services/uploads.ts';
import { theParent } from './system.ts';

/** SPEC §5 and §8 messages. SPEC §5 writes 'a file name' where the chosen file's name goes. */
export const UPLOAD_MESSAGES = {
  tooLarge: `File size exceeds ${fileSize(MAX_UPLOAD_BYTES)}, please upload a smaller file.`,
  invalidType: (fileName: string) => `${fileName} has an invalid file type. Only images or PDFs are allowed.`,
  failed: (fileName: string) => `Error uploading ${fileName}`,
} as const;

/** The bytes go to `url`, or to an address the server presigns for each file when `presign` is given. */
export interface UploadInput {
  url?: string;
  /** SPEC §9: PUT by default. */
  method?: string;
  presign?: { requestId?: number };
}

/** How the last upload failed: answered outside 200-299 (SPEC §8), or not answered at all. */
export type UploadFailure =
  | { kind: 'http'; status: number; statusText: string; responseText: string }
  | { kind: 'network'; error: unknown };

/**
 * What an upload tells the flow that owns it (its parent actor), each with the upload's actor id, for a flow that
 * owns several. Whether an upload is under way, and the key of the uploaded file, the flow reads from the upload's
 * snapshot when it needs them.
 */
export type UploadReport =
  /** SPEC §4's success event: the file is stored under `key` (told of presigned uploads, which alone have a key). */
  | { type: 'UPLOADED'; uploadId: string; key: string; fileName: string }
  /** SPEC §8's upload-error event (or no answer at all, already sent to error tracking). */
  | { type: 'UPLOAD_FAILED'; uploadId: string; failure: UploadFailure }
  /** An uploaded file is no longer selected (removed, replaced, reset): the key told with it no longer applies. */
  | { type: 'UPLOAD_CLEARED'; uploadId: string };

export type UploadEvent =
  | { type: 'CHOOSE_FILE'; file: File }
  | { type: 'REMOVE_FILE' }
  | { type: 'PROGRESS'; percent: number }
  | { type: 'RESET' };

export interface UploadContext {
  input: UploadInput;
  file: File | null;
  /** This file's presigned address and key. */
  presigned: PresignedUrlResponse | null;
  /** 0 to 100. */
  percent: number;
  /** The message in the error box. */
  error: string | null;
  /** Set while the last upload has failed (state `failed`). */
  failure: UploadFailure | null;
}

/** Browsers that do not know HEIF/AVIF report no type at all; their extension then decides. */
const UNTYPED_IMAGE_NAME = /\.(heic|heif|avif)$/i;

function isAcceptedFile(file: File): boolean {
  return isSafeUploadType(file.type) || (file.type === '' && UNTYPED_IMAGE_NAME.test(file.name));
}

function isSameFile(a: File, b: File): boolean {
  return a.name === b.name && a.type === b.type && a.size === b.size;
}

const CLEARED_SELECTION = { file: null, presigned: null, percent: 0, failure: null } as const;
/** The failure of an invoked call, as guard and action parameters. */
const failureOf = ({ event }: { event: { error: unknown } }) => event.error;
/** Both calls of an upload fail alike; one that got no HTTP answer also goes to error tracking (SPEC §8). */
const FAILURE = [
  {
    guard: { type: 'isHttpError', params: failureOf },
    target: '#upload.failed',
    actions: [{ type: 'showUploadFailure', params: failureOf }, 'reportFailed'],
  },
  {
    target: '#upload.failed',
    actions: [{ type: 'showUploadFailure', params: failureOf }, { type: 'reportToTracking', params: failureOf }, 'reportFailed'],
  },
] as const;
const REMOVE = { REMOVE_FILE: { target: '#upload.idle', actions: 'clearSelection' } } as const;

/** SPEC §8 upload-error event: the answer's status, status text and text, as it came (JSON written back as text). */
function failureFrom(error: unknown): UploadFailure {
  if (!isHTTPError(error)) return { kind: 'network', error };
  const { response, data } = error;
  const responseText = data === undefined ? '' : typeof data === 'string' ? data : JSON.stringify(data);
  return { kind: 'http', status: response.status, statusText: response.statusText, responseText };
}

/**
 * SPEC §4 "Single-file upload", §5 "File uploads", §8 "Widget upload failure": one file; choosing checks it (a file
 * identical to the one selected is ignored, a refused one says why, another one replaces it), (presigns,) uploads it
 * with progress, and tells the flow that owns it how it went (UploadReport). The flow clears it with RESET.
 */
export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
  },
  actors: {
    requestPresignedUrl: fromPromise<PresignedUrlResponse, { filename: string; requestId?: number }>(({ input }) =>
      requestPresignedUrl(input.filename, input.requestId),
    ),
    uploadFile: fromPromise<void, Omit<UploadFileOptions, 'signal'>>(({ input, signal }) => uploadFile({ ...input, signal })),
  },
  guards: {
    isSelectedFile: ({ context, event }) =>
      event.type === 'CHOOSE_FILE' && context.file !== null && isSameFile(context.file, event.file),
    isTooLarge: ({ event }) => event.type === 'CHOOSE_FILE' && event.file.size > MAX_UPLOAD_BYTES,
    isNotImageOrPdf: ({ event }) => event.type === 'CHOOSE_FILE' && !isAcceptedFile(event.file),
    mustPresign: ({ context }) => context.input.presign !== undefined,
    hasUrl: ({ context }) => Boolean(context.input.url),
    isHttpError: (_, error: unknown) => isHTTPError(error),
    isAborted: (_, error: unknown) => isAbortError(error),
  },
  actions: {
    select: assign(({ event }) => {
      assertEvent(event, 'CHOOSE_FILE');
      return { ...CLEARED_SELECTION, file: event.file, error: null };
    }),
    clearSelection: assign({ ...CLEARED_SELECTION, error: null }),
    refuseTooLarge: assign({ ...CLEARED_SELECTION, error: UPLOAD_MESSAGES.tooLarge }),
    refuseType: assign(({ event }) => {
      assertEvent(event, 'CHOOSE_FILE');
      return { ...CLEARED_SELECTION, error: UPLOAD_MESSAGES.invalidType(event.file.name) };
    }),
    storePresigned: assign((_, presigned: PresignedUrlResponse) => ({ presigned })),
    setProgress: assign({
      percent: ({ event }) => {
        assertEvent(event, 'PROGRESS');
        return event.percent;
      },
    }),
    completeProgress: assign({ percent: 100 }),
    showUploadFailure: assign(({ context }, error: unknown) => ({
      ...CLEARED_SELECTION,
      error: UPLOAD_MESSAGES.failed(context.file?.name ?? ''),
      failure: failureFrom(error),
    })),
    reportUploaded: enqueueActions(({ context, self, enqueue }) => {
      if (!context.presigned || !context.file) return;
      enqueue.sendTo(theParent, { type: 'UPLOADED', uploadId: self.id, key: context.presigned.key, fileName: context.file.name } satisfies UploadReport);
    }),
    reportFailed: enqueueActions(({ context, self, enqueue }) => {
      if (!context.failure) return;
      enqueue.sendTo(theParent, { type: 'UPLOAD_FAILED', uploadId: self.id, failure: context.failure } satisfies UploadReport);
    }),
    reportCleared: sendTo(theParent, ({ self }) => ({ type: 'UPLOAD_CLEARED', uploadId: self.id }) satisfies UploadReport),
    /** SPEC §8: a network error is rethrown; here that means handed to error tracking (and told to the owner). */
    reportToTracking: (_, error: unknown) => {
      void reportError(error, { component: 'FileUploader', feature: 'uploads' });
    },
    /** SPEC §8: an abort is only logged. */
    logAbort: ({ context }) => {
      console.info(`Upload of ${context.file?.name ?? 'a file'} aborted`);
    },
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({ input, file: null, presigned: null, percent: 0, error: null, failure: null }),
  initial: 'idle',
  on: {
    CHOOSE_FILE: [
      { guard: 'isSelectedFile' },
      { guard: 'isTooLarge', target: '.invalid', actions: 'refuseTooLarge' },
      { guard: 'isNotImageOrPdf', target: '.invalid', actions: 'refuseType' },
      { target: '.chosen', actions: 'select' },
    ],
    RESET: { target: '.idle', actions: 'clearSelection' },
  },
  states: {
    /** Nothing chosen. */
    idle: {},
    /** The last choice was refused (size or type); the error box says why. */
    invalid: {},
    /** The last upload failed; the error box names the file. */
    failed: {},
    /** Pending: stays here when there is no address to send the file to (SPEC §5: nothing is sent). */
    chosen: {
      always: [
        { guard: 'mustPresign', target: 'busy.presigning' },
        { guard: 'hasUrl', target: 'busy.uploading' },
      ],
      on: REMOVE,
    },
    /**
     * An upload under way, from the presign to the last byte: the owner's flow waits for it (e.g. to send its
     * message). Leaving it in any way cancels the transfer.
     */
    busy: {
      on: REMOVE,
      initial: 'presigning',
      states: {
        presigning: {
          invoke: {
            id: 'presign',
            src: 'requestPresignedUrl',
            input: ({ context }) => ({ filename: context.file?.name ?? '', requestId: context.input.presign?.requestId }),
            onDone: { target: 'uploading', actions: { type: 'storePresigned', params: ({ event }) => event.output } },
            onError: FAILURE,
          },
        },
        uploading: {
          invoke: {
            id: 'transfer',
            src: 'uploadFile',
            input: ({ context, self }) => ({
              url: context.presigned?.presigned_url ?? context.input.url ?? '',
              method: context.input.method,
              file: context.file as File,
              onProgress: (percent: number) => self.send({ type: 'PROGRESS', percent }),
            }),
            onDone: { target: '#upload.uploaded', actions: ['completeProgress', 'reportUploaded'] },
            onError: [
              {
                guard: { type: 'isAborted', params: failureOf },
                target: '#upload.idle',
                actions: ['logAbort', 'clearSelection'],
              },
              ...FAILURE,
            ],
          },
          on: { PROGRESS: { actions: 'setProgress' } },
        },
      },
    },
    uploaded: {
      exit: 'reportCleared',
      on: REMOVE,
    },
  },
});

export type UploadActor = ActorRefFrom<typeof uploadMachine>;
export type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;

// ---- Selectors ----

/** From the presign to the last byte. */
export function isUploading(snapshot: UploadSnapshot): boolean {
  return snapshot.matches('busy');
}

/** The storage key of the uploaded file, when its address was presigned. */
export function uploadedKey(snapshot: UploadSnapshot): string | null {
  return snapshot.matches('uploaded') ? (snapshot.context.presigned?.key ?? null) : null;
}

/** What the uploader's progress bar says: nothing while a chosen file waits or when there is none. */
export function uploadStatus(snapshot: UploadSnapshot): 'Uploading' | 'Uploaded' | null {
  if (snapshot.matches('busy')) return 'Uploading';
  if (snapshot.matches('uploaded')) return 'Uploaded';
  return null;
}
