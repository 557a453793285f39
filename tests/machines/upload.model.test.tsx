import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ActorLogic, type SnapshotFrom, createActor, sendTo, setup } from 'xstate';
import { TestModel, type TestModelOptions, type TestParam, type TestPath } from 'xstate/graph';
import { MAX_UPLOAD_BYTES, fileSize } from '../../src/contract/uploads.ts';
import {
  type UploadActor,
  type UploadEvent,
  type UploadInput,
  type UploadReport,
  uploadMachine,
} from '../../src/machines/upload.machine.ts';
import { isHTTPError, isNetworkError } from '../../src/services/http.ts';
import { UploadField } from '../../src/views/UploadField.tsx';
import { FakeXMLHttpRequest } from './fakeXMLHttpRequest.support.ts';
import { httpError, networkError } from './httpFailures.support.ts';
import { expectFullCoverage, expectScenariosWalked } from './modelPaths.support.ts';
import { type HeldRequest, holdRequests } from './network.support.ts';

type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;
/** The machine's own events plus the results of its invoked calls, which the model feeds like any other event. */
type ModelEvent =
  | UploadEvent
  | { type: 'xstate.done.actor.presign'; output: { presigned_url: string; key: string } }
  | { type: 'xstate.error.actor.presign'; error: Error }
  | { type: 'xstate.done.actor.transfer'; output: undefined }
  | { type: 'xstate.error.actor.transfer'; error: Error };
type StateAssertions = NonNullable<TestParam<UploadSnapshot, ModelEvent>['states']>;
type EventExecutors = NonNullable<TestParam<UploadSnapshot, ModelEvent>['events']>;

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
/**
 * A File that names itself when serialised (xstate/graph compares and prints events as JSON, and a File is {}).
 * A 25 MiB body is not needed to test a 25 MiB limit: only the reported size matters to the uploader.
 */
function fileOf(label: string, name: string, type: string, content: BlobPart = PNG_BYTES, size?: number): File {
  const file = new File([content], name, { type });
  Object.defineProperty(file, 'toJSON', { value: () => label });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}
const FILES = {
  photo: fileOf('photo.png', 'photo.png', 'image/png'),
  /** Another file object, identical in name, type and size to `photo`. */
  photoAgain: fileOf('photo copy', 'photo.png', 'image/png'),
  scan: fileOf('scan.pdf', 'scan.pdf', 'application/pdf', '%PDF-1.7\n%%EOF\n'),
  huge: fileOf('huge.png', 'huge.png', 'image/png', PNG_BYTES, MAX_UPLOAD_BYTES + 1),
  notes: fileOf('notes.txt', 'notes.txt', 'text/plain', 'just text'),
};
const REQUEST_ID = 7;
const PRESIGN_INPUT: UploadInput = { presign: { requestId: REQUEST_ID } };
const URL_INPUT: UploadInput = { url: 'https://files.example.com/incoming/photo', method: 'POST' };

/** What the server answers to a presign (root-relative, as the disk store does) and what the client makes of it. */
const storagePathOf = (file: File) => `/api/storage/key-${file.name}?expires=1&signature=signed`;
const presignedOf = (file: File) => ({ presigned_url: `http://localhost:3000${storagePathOf(file)}`, key: `key-${file.name}` });

const choose = (file: File): ModelEvent => ({ type: 'CHOOSE_FILE', file });
/** The storage's refusal of the bytes, its body text as it came (no JSON content type); the presign's, parsed by ky. */
const HTTP_FAILURE = httpError(500, '{"error":"An unexpected error occurred"}', 'Internal Server Error');
const PRESIGN_REFUSAL = httpError(404, { error: 'Request not found' }, 'Not Found');
const ABORTED = new DOMException('The upload was aborted', 'AbortError');
/** The upload-error event's response text: the body as it came, JSON written back as text. */
const responseTextOf = (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data));

/**
 * The events offered in each state, kept finite: the PDF is only ever a second file (so reaching it means a
 * replacement), the copy of the photo only arrives while the photo is selected, progress is reported once.
 */
function eventsFor(snapshot: UploadSnapshot): ModelEvent[] {
  const { file, percent } = snapshot.context;
  const events: ModelEvent[] = [choose(FILES.huge), choose(FILES.notes)];
  if (file === null) events.push(choose(FILES.photo));
  else events.push({ type: 'REMOVE_FILE' });
  if (file === FILES.photo) events.push(choose(FILES.photoAgain), choose(FILES.scan));
  if (snapshot.matches({ busy: 'presigning' }) && file) {
    events.push(
      { type: 'xstate.done.actor.presign', output: presignedOf(file) },
      { type: 'xstate.error.actor.presign', error: PRESIGN_REFUSAL },
      { type: 'xstate.error.actor.presign', error: networkError() },
    );
  }
  if (snapshot.matches({ busy: 'uploading' })) {
    if (percent === 0) events.push({ type: 'PROGRESS', percent: 40 });
    events.push(
      { type: 'xstate.done.actor.transfer', output: undefined },
      { type: 'xstate.error.actor.transfer', error: HTTP_FAILURE },
      { type: 'xstate.error.actor.transfer', error: networkError() },
      { type: 'xstate.error.actor.transfer', error: ABORTED },
    );
  }
  if (snapshot.matches('uploaded')) events.push({ type: 'RESET' });
  return events;
}

function describeEvent(event: ModelEvent | undefined): string {
  if (!event) return 'start';
  if (event.type === 'CHOOSE_FILE') return `${event.type} ${JSON.stringify(event.file)}`;
  if ('error' in event) return `${event.type} ${event.error.name}`;
  if (event.type === 'xstate.done.actor.presign') return `${event.type} ${event.output.key}`;
  return event.type;
}

/** The machine as the model sees it: its events include the results of its invoked calls. */
const modelLogic = uploadMachine as unknown as ActorLogic<UploadSnapshot, ModelEvent, UploadInput>;

/** How states and events are told apart. */
function traversalOf(input: UploadInput): Partial<TestModelOptions<UploadSnapshot, ModelEvent, UploadInput>> {
  return {
    input,
    events: eventsFor,
    serializeEvent: (event: ModelEvent) => describeEvent(event),
    // The way a state was reached is part of it: a failure after an HTTP error and after a network error, or the
    // empty uploader after a removal and after an abort, are different tests.
    serializeState: (snapshot: UploadSnapshot, event: ModelEvent | undefined) => {
      const { file, percent, error } = snapshot.context;
      return `${JSON.stringify(snapshot.value)} ${JSON.stringify(file)} ${percent}% ${error ?? ''} via ${describeEvent(event)}`;
    },
  };
}

function modelOf(input: UploadInput) {
  return new TestModel(modelLogic, {
    ...traversalOf(input),
    stateMatcher: (snapshot, key) => snapshot.matches(key as 'idle'),
  });
}

/** A named scenario; the traversal starts from the machine's initial state for this input. */
function scenario(input: UploadInput, events: ModelEvent[]) {
  return modelOf(input)
    .getPathsFromEvents(events, {
      ...traversalOf(input),
      events,
      fromState: createActor(uploadMachine, { input }).getSnapshot(),
    })
    .map((path) => ({ input, path }));
}

const paths: { input: UploadInput; path: TestPath<UploadSnapshot, ModelEvent> }[] = [
  ...modelOf(PRESIGN_INPUT).getShortestPaths().map((path) => ({ input: PRESIGN_INPUT, path })),
  // Without an address the choice stays pending and nothing is sent.
  ...modelOf({}).getShortestPaths().map((path) => ({ input: {}, path })),
  // A replacement after a finished upload.
  ...scenario(PRESIGN_INPUT, [
    choose(FILES.photo),
    { type: 'xstate.done.actor.presign', output: presignedOf(FILES.photo) },
    { type: 'xstate.done.actor.transfer', output: undefined },
    choose(FILES.scan),
    { type: 'xstate.done.actor.presign', output: presignedOf(FILES.scan) },
    { type: 'xstate.done.actor.transfer', output: undefined },
  ]),
  // The owner's reset, sent while the next file uploads, ends that upload too.
  ...scenario(PRESIGN_INPUT, [
    choose(FILES.photo),
    { type: 'xstate.done.actor.presign', output: presignedOf(FILES.photo) },
    { type: 'xstate.done.actor.transfer', output: undefined },
    choose(FILES.scan),
    { type: 'RESET' },
  ]),
  // Another file chosen halfway through a transfer: that upload ends (cancelled, not failed) and the next begins.
  ...scenario(PRESIGN_INPUT, [
    choose(FILES.photo),
    { type: 'xstate.done.actor.presign', output: presignedOf(FILES.photo) },
    { type: 'PROGRESS', percent: 40 },
    choose(FILES.scan),
  ]),
  // An uploaded file removed: the owner hears it is gone, and the uploader is empty again.
  ...scenario(PRESIGN_INPUT, [
    choose(FILES.photo),
    { type: 'xstate.done.actor.presign', output: presignedOf(FILES.photo) },
    { type: 'xstate.done.actor.transfer', output: undefined },
    { type: 'REMOVE_FILE' },
  ]),
  // Removed halfway through the transfer: cancelled, not failed.
  ...scenario(PRESIGN_INPUT, [
    choose(FILES.photo),
    { type: 'xstate.done.actor.presign', output: presignedOf(FILES.photo) },
    { type: 'REMOVE_FILE' },
  ]),
  // An address given by the owner, with its own method.
  ...scenario(URL_INPUT, [
    choose(FILES.photo),
    { type: 'PROGRESS', percent: 40 },
    { type: 'xstate.done.actor.transfer', output: undefined },
  ]),
];

// ---- The fake network: msw holds the presign call, the file body goes through XMLHttpRequest. ----

let pendingFetches: HeldRequest[];

const lastTransfer = () => {
  const transfer = FakeXMLHttpRequest.sent.at(-1);
  if (!transfer) throw new Error('no file transfer was started');
  return transfer;
};
const lastFetch = () => {
  const pending = pendingFetches.at(-1);
  if (!pending) throw new Error('no presign call was made');
  return pending;
};

// ---- What the user sees, and what the flow that owns the upload is told. ----

/** What the upload tells its owner, in order. */
let reports: UploadReport[];
/** A flow that owns an upload, as the app's flows do: it hears the upload's reports and empties it with RESET. */
const ownerMachine = setup({
  types: { input: {} as UploadInput, context: {} as { input: UploadInput }, events: {} as UploadReport | { type: 'EMPTY_UPLOADER' } },
  actors: { upload: uploadMachine },
}).createMachine({
  context: ({ input }) => ({ input }),
  invoke: { id: 'upload', src: 'upload', input: ({ context }) => context.input },
  on: {
    UPLOADED: { actions: ({ event }) => reports.push(event) },
    UPLOAD_FAILED: { actions: ({ event }) => reports.push(event) },
    UPLOAD_CLEARED: { actions: ({ event }) => reports.push(event) },
    EMPTY_UPLOADER: { actions: sendTo('upload', { type: 'RESET' }) },
  },
});
let owner: ReturnType<typeof createActor<typeof ownerMachine>>;

let user: UserEvent;
let liveObjectUrls: Set<string>;
let consoleInfo: ReturnType<typeof vi.spyOn>;
let consoleError: ReturnType<typeof vi.spyOn>;
/** The state asserted last, and how many reports the owner must have had by then. */
let previous: UploadSnapshot | null;
let expectedReports: number;
const lastReport = () => reports.at(-1);

const removeButton = () => screen.queryByRole('button', { name: /^Remove / });
const progressBar = () => screen.queryByRole('progressbar');

function expectNoFileShown() {
  expect(removeButton()).not.toBeInTheDocument();
  expect(progressBar()).not.toBeInTheDocument();
  expect(liveObjectUrls.size).toBe(0);
}

function expectFileShown(file: File) {
  expect(screen.getByText(file.name)).toBeInTheDocument();
  expect(screen.getByText(fileSize(file.size))).toBeInTheDocument();
  expect(removeButton()).toHaveAccessibleName(`Remove ${file.name}`);
  const preview = document.querySelector<HTMLImageElement>('img.lc-file-uploader__preview');
  if (file.type.startsWith('image/')) {
    expect(liveObjectUrls.size).toBe(1);
    expect(preview?.getAttribute('src')).toBe([...liveObjectUrls][0]);
  } else {
    expect(preview).toBeNull();
    expect(liveObjectUrls.size).toBe(0);
  }
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
}

function expectProgress(status: 'Uploading' | 'Uploaded', percent: number) {
  expect(progressBar()).toHaveAccessibleName(status);
  expect(progressBar()).toHaveAttribute('aria-valuenow', String(percent));
  expect(progressBar()).toHaveTextContent(`${status}${percent}%`);
}

const stateAssertions: StateAssertions = {
  idle: () => {
    expectNoFileShown();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  invalid: (snapshot) => {
    expectNoFileShown();
    expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error ?? 'an error');
  },
  failed: (snapshot) => {
    expectNoFileShown();
    expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error ?? 'an error');
    expect(snapshot.context.error).toMatch(/^Error uploading (photo\.png|scan\.pdf)$/);
  },
  chosen: (snapshot) => {
    expectFileShown(snapshot.context.file as File);
    expect(progressBar()).not.toBeInTheDocument();
    expect(pendingFetches).toHaveLength(0);
    expect(FakeXMLHttpRequest.sent).toHaveLength(0);
  },
  busy: () => {
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  'busy.presigning': async (snapshot) => {
    const file = snapshot.context.file as File;
    expectFileShown(file);
    expectProgress('Uploading', 0);
    const { request } = lastFetch();
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/v1/uploads/presigned_url');
    expect(await request.clone().json()).toEqual({ upload: { filename: file.name }, request_id: REQUEST_ID });
  },
  'busy.uploading': (snapshot) => {
    const { file, percent, input, presigned } = snapshot.context;
    expectFileShown(file as File);
    expectProgress('Uploading', percent);
    const transfer = lastTransfer();
    expect(transfer.method).toBe(input.method ?? 'PUT');
    expect(transfer.url).toBe(presigned?.presigned_url ?? input.url);
    expect(transfer.headers['content-type']).toBe(file?.type);
    expect(transfer.withCredentials).toBe(false);
    expect(transfer.body).toBe(file);
  },
  uploaded: (snapshot) => {
    const file = snapshot.context.file as File;
    expectFileShown(file);
    expectProgress('Uploaded', 100);
    const { presigned } = snapshot.context;
    // The success event names the storage key; an upload to an address the owner gave has none to tell.
    if (presigned) expect(lastReport()).toEqual({ type: 'UPLOADED', uploadId: 'upload', key: presigned.key, fileName: file.name });
  },
};

/** The reports due on the way from the previous state: a success, a failure, an uploaded file going away. */
function reportsSince(before: UploadSnapshot | null, now: UploadSnapshot): number {
  const cleared = before?.matches('uploaded') && !(now.matches('uploaded') && now.context.file === before.context.file);
  const uploaded = now.matches('uploaded') && !before?.matches('uploaded') && now.context.presigned !== null;
  const failed = now.matches('failed') && !before?.matches('failed');
  return [cleared, uploaded, failed].filter(Boolean).length;
}

/** Every assertion also checks that the owner was told exactly what it had to be told. */
const checkedStates: StateAssertions = Object.fromEntries(
  Object.entries(stateAssertions).map(([key, assertion]) => [
    key,
    async (snapshot: UploadSnapshot) => {
      expectedReports += reportsSince(previous, snapshot);
      await assertion(snapshot);
      expect(reports).toHaveLength(expectedReports);
      previous = snapshot;
    },
  ]),
);

const upload = () => owner.getSnapshot().children.upload as UploadActor;

const fileInput = () => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('the uploader has no file input');
  return input;
};

const settle = (effect: () => void) => act(async () => effect());

const eventExecutors: EventExecutors = {
  CHOOSE_FILE: async ({ event }) => {
    const { file } = event as Extract<UploadEvent, { type: 'CHOOSE_FILE' }>;
    const selected = previous?.context.file;
    const callsBefore = { fetches: pendingFetches.length, transfers: FakeXMLHttpRequest.sent.length };
    const transfer = previous?.matches({ busy: 'uploading' }) ? lastTransfer() : null;
    const aborts = vi.fn();
    transfer?.addEventListener('abort', aborts);
    await user.upload(fileInput(), file);
    // The SPEC §5 rules, restated here so that the machine is not its own judge.
    if (selected && selected.name === file.name && selected.type === file.type && selected.size === file.size) {
      expect({ fetches: pendingFetches.length, transfers: FakeXMLHttpRequest.sent.length }).toEqual(callsBefore);
      expect(screen.getByText(selected.name)).toBeInTheDocument();
    }
    if (file === FILES.huge) {
      expect(screen.getByRole('alert')).toHaveTextContent('File size exceeds 25 MB, please upload a smaller file.');
    }
    if (file === FILES.notes) {
      expect(screen.getByRole('alert')).toHaveTextContent('notes.txt has an invalid file type. Only images or PDFs are allowed.');
    }
    // Another file (or a refused one) chosen during a transfer cancels it, unreported.
    if (transfer && file !== FILES.photoAgain) expect(aborts).toHaveBeenCalledOnce();
    expect(consoleError).not.toHaveBeenCalled();
  },
  REMOVE_FILE: async () => {
    const transfer = FakeXMLHttpRequest.sent.at(-1);
    const abortsBefore = vi.fn();
    transfer?.addEventListener('abort', abortsBefore);
    await user.click(removeButton() as HTMLElement);
    // Removing during the transfer cancels it, and that cancellation is not reported as a failure.
    if (previous?.matches({ busy: 'uploading' })) expect(abortsBefore).toHaveBeenCalledOnce();
    expect(consoleError).not.toHaveBeenCalled();
  },
  PROGRESS: async ({ event }) => {
    const { percent } = event as Extract<UploadEvent, { type: 'PROGRESS' }>;
    await settle(() =>
      lastTransfer().upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: percent, total: 100 })),
    );
  },
  RESET: async () => {
    await settle(() => owner.send({ type: 'EMPTY_UPLOADER' }));
  },
  'xstate.done.actor.presign': async ({ event }) => {
    const { key } = (event as Extract<ModelEvent, { type: 'xstate.done.actor.presign' }>).output;
    const file = previous?.context.file as File;
    const body = JSON.stringify({ presigned_url: storagePathOf(file), key });
    await settle(() => lastFetch().answer(new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })));
  },
  'xstate.error.actor.presign': async ({ event }) => {
    const { error } = event as Extract<ModelEvent, { type: 'xstate.error.actor.presign' }>;
    if (isHTTPError(error)) {
      const { status, statusText } = error.response;
      const responseText = responseTextOf(error.data);
      const response = new Response(responseText, { status, statusText, headers: { 'content-type': 'application/json' } });
      await settle(() => lastFetch().answer(response));
      // ky parses a JSON error body; the owner gets it back as text (once the answer has come through the network).
      await waitFor(() =>
        expect(lastReport()).toEqual({ type: 'UPLOAD_FAILED', uploadId: 'upload', failure: { kind: 'http', status, statusText, responseText } }),
      );
    } else {
      await settle(() => lastFetch().answer(HttpResponse.error()));
      await waitFor(() => expect(lastReport()).toMatchObject({ type: 'UPLOAD_FAILED', failure: { kind: 'network' } }));
      expect(consoleError).toHaveBeenCalledOnce();
    }
  },
  'xstate.done.actor.transfer': async () => {
    await settle(() => lastTransfer().respond(204, 'No Content'));
  },
  'xstate.error.actor.transfer': async ({ event }) => {
    const { error } = event as Extract<ModelEvent, { type: 'xstate.error.actor.transfer' }>;
    const transfer = lastTransfer();
    if (isHTTPError(error)) {
      const { status, statusText } = error.response;
      const responseText = responseTextOf(error.data);
      await settle(() => transfer.respond(status, statusText, responseText));
      await waitFor(() =>
        expect(lastReport()).toEqual({ type: 'UPLOAD_FAILED', uploadId: 'upload', failure: { kind: 'http', status, statusText, responseText } }),
      );
      expect(consoleError).not.toHaveBeenCalled();
    } else if (isNetworkError(error)) {
      await settle(() => transfer.dispatchEvent(new Event('error')));
      expect(lastReport()).toEqual({
        type: 'UPLOAD_FAILED',
        uploadId: 'upload',
        failure: { kind: 'network', error: expect.objectContaining({ name: 'NetworkError' }) },
      });
      // Rethrown to error tracking (which logs to the console when VITE_REPORT_ERRORS is false).
      expect(consoleError).toHaveBeenCalledWith(
        'Error in FileUploader (uploads)',
        expect.objectContaining({ name: 'NetworkError' }),
        expect.objectContaining({ name: 'NetworkError' }),
      );
    } else {
      await settle(() => transfer.abort());
      // SPEC §8: an abort is only logged.
      expect(consoleInfo).toHaveBeenCalledWith(`Upload of ${transfer.body instanceof File ? transfer.body.name : ''} aborted`);
      expect(reports.filter(({ type }) => type === 'UPLOAD_FAILED')).toEqual([]);
      expect(consoleError).not.toHaveBeenCalled();
    }
  },
};

describe('upload machine, a child of its flow, against its uploader', () => {
  beforeEach(() => {
    user = userEvent.setup({ applyAccept: false });
    reports = [];
    previous = null;
    expectedReports = 0;
    pendingFetches = holdRequests();
    FakeXMLHttpRequest.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
    liveObjectUrls = new Set();
    let made = 0;
    URL.createObjectURL = vi.fn(() => {
      made += 1;
      const address = `blob:http://localhost:3000/preview-${made}`;
      liveObjectUrls.add(address);
      return address;
    });
    URL.revokeObjectURL = vi.fn((address: string) => {
      liveObjectUrls.delete(address);
    });
    consoleInfo = vi.spyOn(console, 'info').mockImplementation(() => {});
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    owner.stop();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const described = paths.map(({ input, path }) => {
    const address = input.presign ? 'presigned' : input.url ? 'given url' : 'no address';
    return [`${address}: ${path.steps.map((step) => describeEvent(step.event as ModelEvent)).join(' > ')}`, input, path] as const;
  });
  it.each(described)(
    '%s',
    async (_description, input, path) => {
      owner = createActor(ownerMachine, { input }).start();
      const { unmount } = render(<UploadField upload={upload()} label="Attach a file" />);
      await path.test({ states: checkedStates, events: eventExecutors });
      unmount();
      // The preview's object URL does not outlive the uploader.
      expect(liveObjectUrls.size).toBe(0);
    },
  );
});

describe('upload model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(uploadMachine, paths.map(({ path }) => path), stateAssertions, eventExecutors);
  });

  it('walks every path the issue names', () => {
    const descriptions = paths.map(({ path }) => path.steps.map((step) => describeEvent(step.event as ModelEvent)).join(' > '));
    const scenarios: Record<string, RegExp> = {
      success: /xstate\.done\.actor\.transfer$/,
      'HTTP error': /xstate\.error\.actor\.transfer HTTPError$/,
      'network error': /xstate\.error\.actor\.transfer NetworkError$/,
      abort: /xstate\.error\.actor\.transfer AbortError$/,
      oversize: /CHOOSE_FILE "huge\.png"$/,
      'wrong type': /CHOOSE_FILE "notes\.txt"$/,
      duplicate: /CHOOSE_FILE "photo\.png" > .*CHOOSE_FILE "photo copy"$/,
      'replace after upload': /xstate\.done\.actor\.transfer > CHOOSE_FILE "scan\.pdf"/,
      remove: /REMOVE_FILE$/,
      reset: /RESET$/,
      'reset during the next upload': /CHOOSE_FILE "scan\.pdf" > RESET$/,
      'replace during an upload': /PROGRESS > CHOOSE_FILE "scan\.pdf"$/,
      'remove during an upload': /xstate\.done\.actor\.presign [^>]*> REMOVE_FILE$/,
    };
    expectScenariosWalked(descriptions, scenarios);
  });
});
