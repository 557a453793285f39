import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { MAX_UPLOAD_BYTES, type PresignedUrlResponse, isSafeUploadType } from '../contract/uploads.ts';
import { reportError } from '../services/errorReporting.ts';
import {
  UploadAbortedError,
  UploadHttpError,
  type UploadFileOptions,
  requestPresignedUrl,
  uploadFile,
} from '../services/uploads.ts';
import { fileSize } from '../widgets/format.ts';

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

export interface UploadErrorDetails {
  status: number;
  statusText: string;
  responseText: string;
}

export interface UploadedResult {
  /** The storage key, when the address was presigned by our server. */
  key?: string;
  file: File;
  /** Clears the uploader, e.g. once the message carrying the file has been sent. */
  reset: () => void;
}

/** What the uploader tells its owner (actor.on(type, handler)). */
export type UploadEmitted =
  | ({ type: 'uploaded' } & UploadedResult)
  | ({ type: 'uploadError' } & UploadErrorDetails)
  /** No HTTP answer (or another unexpected failure): reported to error tracking, and handed to the owner. */
  | { type: 'uploadFailed'; error: unknown }
  /** An uploaded file is no longer selected (removed, replaced, reset): any key taken from it is stale. */
  | { type: 'cleared' }
  /**
   * An upload began (its presign included), or it ended in any way: uploaded, failed, aborted, removed, replaced,
   * reset. The end is told after its outcome ('uploaded', 'uploadError', 'uploadFailed'), so an owner that hears
   * `busy: false` already knows whether it has a file.
   */
  | { type: 'busy'; busy: boolean };

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
}

/** Browsers that do not know HEIF/AVIF report no type at all; their extension then decides. */
const UNTYPED_IMAGE_NAME = /\.(heic|heif|avif)$/i;

function isAcceptedFile(file: File): boolean {
  return isSafeUploadType(file.type) || (file.type === '' && UNTYPED_IMAGE_NAME.test(file.name));
}

function isSameFile(a: File, b: File): boolean {
  return a.name === b.name && a.type === b.type && a.size === b.size;
}

const CLEARED_SELECTION = { file: null, presigned: null, percent: 0 } as const;
/** The failure of an invoked call, as guard and action parameters. */
const failureOf = ({ event }: { event: { error: unknown } }) => event.error;
/** Both calls of an upload fail alike; the owner hears the failure, then that the upload has ended. */
const FAILURE = [
  {
    guard: { type: 'isHttpError', params: failureOf },
    target: '#upload.failed',
    actions: ['showUploadFailure', { type: 'emitUploadError', params: failureOf }, 'emitNotBusy'],
  },
  {
    target: '#upload.failed',
    actions: [
      'showUploadFailure',
      { type: 'reportFailure', params: failureOf },
      { type: 'emitUploadFailed', params: failureOf },
      'emitNotBusy',
    ],
  },
] as const;
const REMOVE = { REMOVE_FILE: { target: 'idle', actions: 'clearSelection' } } as const;

/**
 * A file is chosen: the same file again is ignored; a refused one says why; another one replaces it. During an
 * upload, that upload ends, and the owner is told so last (see `busy`).
 */
function chooseFile({ duringUpload }: { duringUpload: boolean }) {
  const endings = duringUpload ? (['emitNotBusy'] as const) : ([] as const);
  return [
    { guard: 'isSelectedFile' },
    { guard: 'isTooLarge', target: '#upload.invalid', actions: ['refuseTooLarge', ...endings] },
    { guard: 'isNotImageOrPdf', target: '#upload.invalid', actions: ['refuseType', ...endings] },
    { target: '#upload.chosen', actions: ['select', ...endings] },
  ] as const;
}

/**
 * SPEC §4 "Single-file upload", §5 "File uploads", §8 "Widget upload failure": one file; choosing checks it,
 * (presigns,) uploads it with progress, and tells the owner through emitted events.
 */
export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
    emitted: {} as UploadEmitted,
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
    isHttpError: (_, error: unknown) => error instanceof UploadHttpError,
    isAborted: (_, error: unknown) => error instanceof UploadAbortedError,
  },
  actions: {
    select: assign(({ event }) => {
      assertEvent(event, 'CHOOSE_FILE');
      return { file: event.file, presigned: null, percent: 0, error: null };
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
    showUploadFailure: assign(({ context }) => ({
      ...CLEARED_SELECTION,
      error: UPLOAD_MESSAGES.failed(context.file?.name ?? ''),
    })),
    emitUploaded: emit(({ context, self }) => ({
      type: 'uploaded' as const,
      key: context.presigned?.key,
      file: context.file as File,
      reset: () => self.send({ type: 'RESET' }),
    })),
    emitUploadError: emit((_, error: unknown) => {
      const { status, statusText, responseText } = error as UploadHttpError;
      return { type: 'uploadError' as const, status, statusText, responseText };
    }),
    emitUploadFailed: emit((_, error: unknown) => ({ type: 'uploadFailed' as const, error })),
    emitCleared: emit({ type: 'cleared' as const }),
    emitBusy: emit({ type: 'busy' as const, busy: true }),
    emitNotBusy: emit({ type: 'busy' as const, busy: false }),
    /** SPEC §8: a network error is rethrown; here that means handed to error tracking (and to the owner). */
    reportFailure: (_, error: unknown) => {
      void reportError(error, { component: 'FileUploader', feature: 'uploads' });
    },
    /** SPEC §8: an abort is only logged. */
    logAbort: ({ context }) => {
      console.info(`Upload of ${context.file?.name ?? 'a file'} aborted`);
    },
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({ input, file: null, presigned: null, percent: 0, error: null }),
  initial: 'idle',
  on: {
    CHOOSE_FILE: chooseFile({ duringUpload: false }),
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
     * An upload under way, from the presign to the last byte. Entering tells the owner it has begun; every
     * transition out of it tells the owner it has ended, after telling how (the transfer itself is cancelled when
     * its state is left).
     */
    busy: {
      entry: 'emitBusy',
      on: {
        CHOOSE_FILE: chooseFile({ duringUpload: true }),
        REMOVE_FILE: { target: 'idle', actions: ['clearSelection', 'emitNotBusy'] },
        RESET: { target: 'idle', actions: ['clearSelection', 'emitNotBusy'] },
      },
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
            onDone: { target: '#upload.uploaded', actions: ['completeProgress', 'emitUploaded', 'emitNotBusy'] },
            onError: [
              {
                guard: { type: 'isAborted', params: failureOf },
                target: '#upload.idle',
                actions: ['logAbort', 'clearSelection', 'emitNotBusy'],
              },
              ...FAILURE,
            ],
          },
          on: { PROGRESS: { actions: 'setProgress' } },
        },
      },
    },
    uploaded: {
      exit: 'emitCleared',
      on: REMOVE,
    },
  },
});
