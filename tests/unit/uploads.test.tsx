import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { fileSize } from '../../src/contract/uploads.ts';
import { surveyPreviewOf } from '../../src/machines/surveyPreview.ts';
import { isUploading, uploadMachine } from '../../src/machines/upload.machine.ts';
import { serverMessage } from '../../src/services/http.ts';
import {
  getExpiringUrl,
  requestPresignedUrl,
  uploadFile,
} from '../../src/services/uploads.ts';
import { FileUploader, type FileUploaderProps } from '../../src/widgets/FileUploader.tsx';
import { FakeXMLHttpRequest } from '../machines/fakeXMLHttpRequest.support.ts';


function sent(): FakeXMLHttpRequest {
  const last = FakeXMLHttpRequest.sent.at(-1);
  if (!last) throw new Error('nothing was sent');
  return last;
}

const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  FakeXMLHttpRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('what the uploader accepts', () => {
  const afterChoosing = (file: File) => {
    const actor = createActor(uploadMachine, { input: {} }).start();
    actor.send({ type: 'CHOOSE_FILE', file });
    return actor.getSnapshot();
  };

  it('takes an untyped HEIF or AVIF photo by its extension, and nothing else untyped', () => {
    expect(afterChoosing(new File(['x'], 'IMG_0001.HEIC')).matches('chosen')).toBe(true);
    expect(afterChoosing(new File(['x'], 'sunset.avif')).matches('chosen')).toBe(true);
    const refused = afterChoosing(new File(['x'], 'archive.zip'));
    expect(refused.matches('invalid')).toBe(true);
    expect(refused.context.error).toBe('archive.zip has an invalid file type. Only images or PDFs are allowed.');
  });

  it('refuses images the server would refuse, such as SVG', () => {
    expect(afterChoosing(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' })).matches('invalid')).toBe(true);
  });
});

describe('uploadFile', () => {
  it('sends an untyped file as application/octet-stream, without credentials, reporting whole percents', async () => {
    const progress = vi.fn();
    const file = new File(['some bytes'], 'mystery');
    const done = uploadFile({ url: 'https://bucket.example.com/k', file, onProgress: progress });
    const request = sent();
    expect([request.method, request.url]).toEqual(['PUT', 'https://bucket.example.com/k']);
    expect(request.headers['content-type']).toBe('application/octet-stream');
    expect(request.withCredentials).toBe(false);
    expect(request.body).toBe(file);
    request.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: 1, total: 3 }));
    request.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: false, loaded: 2, total: 0 }));
    expect(progress.mock.calls).toEqual([[33]]);
    Object.assign(request, { status: 201 });
    request.dispatchEvent(new Event('load'));
    await expect(done).resolves.toBeUndefined();
  });

  it("rejects a non-2xx answer as an API call's: ky's HTTPError with its status, status text and body", async () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const refused = uploadFile({ url: 'https://bucket.example.com/k', file, method: 'POST' });
    expect(sent().method).toBe('POST');
    sent().respond(415, 'Unsupported Media Type', '<Error>SignatureDoesNotMatch</Error>', { 'content-type': 'application/xml' });
    await expect(refused).rejects.toMatchObject({
      name: 'HTTPError',
      response: { status: 415, statusText: 'Unsupported Media Type' },
      data: '<Error>SignatureDoesNotMatch</Error>',
    });

    const refusedWithJson = uploadFile({ url: 'https://files.example.com/k', file });
    sent().respond(415, 'Unsupported Media Type', '{"error":"Only images or PDFs are allowed."}', { 'content-type': 'application/json' });
    const error = await refusedWithJson.catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'HTTPError', data: { error: 'Only images or PDFs are allowed.' } });
    expect(serverMessage(error)).toBe('Only images or PDFs are allowed.');
  });

  it("rejects a network failure with ky's NetworkError and an abort with an AbortError, as API calls do", async () => {
    const failing = uploadFile({ url: 'https://bucket.example.com/k', file: new File(['x'], 'a.png') });
    sent().dispatchEvent(new Event('error'));
    await expect(failing).rejects.toMatchObject({ name: 'NetworkError', request: { method: 'PUT', url: 'https://bucket.example.com/k' } });

    const controller = new AbortController();
    const aborted = uploadFile({ url: 'https://bucket.example.com/k', file: new File(['x'], 'a.png'), signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });

    const sentBefore = FakeXMLHttpRequest.sent.length;
    const file = new File(['x'], 'a.png');
    await expect(uploadFile({ url: 'https://bucket.example.com/k', file, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(FakeXMLHttpRequest.sent).toHaveLength(sentBefore);
  });
});

describe('the uploads API', () => {
  it('presigns with the file name and request, and resolves the address against the API origin', async () => {
    const received: { path: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        received.push({ path: new URL(request.url).pathname, body: await request.json() });
        return jsonResponse({ presigned_url: '/api/storage/abc.png?expires=1&signature=s', key: 'abc.png' });
      }),
    );
    await expect(requestPresignedUrl('photo.png', 12)).resolves.toEqual({
      key: 'abc.png',
      presigned_url: 'http://localhost:3000/api/storage/abc.png?expires=1&signature=s',
    });
    expect(received).toEqual([{ path: '/api/v1/uploads/presigned_url', body: { upload: { filename: 'photo.png' }, request_id: 12 } }]);
  });

  it("lets a refused presign through as ky's HTTPError carrying the answer", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ error: 'Request not found' }, 404)));
    const failure = await requestPresignedUrl('photo.png', 99).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'HTTPError', response: { status: 404 }, data: { error: 'Request not found' } });
  });

  it('keeps an absolute expiring address as it is', async () => {
    const fetch = vi.fn(async (_request: Request) => jsonResponse({ expiring_url: 'https://bucket.example.com/abc.png?X-Amz-Signature=1' }));
    vi.stubGlobal('fetch', fetch);
    await expect(getExpiringUrl('abc.png')).resolves.toBe('https://bucket.example.com/abc.png?X-Amz-Signature=1');
    expect(new URL(fetch.mock.calls[0][0].url).search).toBe('?key=abc.png');
  });
});

describe('an upload', () => {
  const answerTransfer = (status: number) => {
    Object.assign(sent(), { status });
    sent().dispatchEvent(new Event('load'));
  };

  it('is under way from the presign to the last byte, whatever the photo\'s reported type', async () => {
    let answerPresign: (response: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answerPresign = resolve)));
    vi.stubGlobal('fetch', fetch);
    const upload = createActor(uploadMachine, { input: { presign: { requestId: 3 } } }).start();

    // A photo the browser gives no type: uploaded like any other.
    upload.send({ type: 'CHOOSE_FILE', file: new File(['heic bytes'], 'IMG_0001.HEIC') });
    expect(isUploading(upload.getSnapshot())).toBe(true);
    // The presign goes out once the HTTP client has loaded (with the first call).
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledOnce());
    answerPresign(jsonResponse({ presigned_url: '/api/storage/k.heic?signature=s', key: 'k.heic' }));
    await waitFor(upload, (snapshot) => snapshot.matches({ busy: 'uploading' }));
    expect(sent().body).toBeInstanceOf(File);

    answerTransfer(200);
    await waitFor(upload, (snapshot) => snapshot.matches('uploaded'));
    expect(isUploading(upload.getSnapshot())).toBe(false);
  });
});

describe("the admin's survey preview", () => {
  it('takes a chosen file as an uploaded answer, and sends nothing', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const question = { id: 4, label: 'A photo that would help?', type: 'SingleUploadInput' as const, optional: false };
    const preview = surveyPreviewOf([{ id: 4, question, universal_answer: null, optional: false, last_question: true }], 'Moving');
    const survey = createActor(preview, { input: { survey: { id: 0, name: 'Moving' }, firstRequest: false } }).start();
    await waitFor(survey, (snapshot) => snapshot.children.upload !== undefined);

    survey.getSnapshot().children.upload?.send({ type: 'CHOOSE_FILE', file: new File(['png bytes'], 'receipt.png', { type: 'image/png' }) });
    const answered = await waitFor(survey, (snapshot) => snapshot.context.draft.value !== '');
    expect(answered.context.draft).toEqual({ value: 'preview/receipt.png', fileName: 'receipt.png' });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(FakeXMLHttpRequest.sent).toEqual([]);
    survey.stop();
  });
});

describe('FileUploader', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost:3000/preview');
    URL.revokeObjectURL = vi.fn();
  });

  const shown = (props: Partial<FileUploaderProps> = {}) => {
    const onChoose = vi.fn<(file: File) => void>();
    const onRemove = vi.fn<() => void>();
    render(
      <FileUploader label="Attach a file" file={null} status={null} percent={0} error={null} onChoose={onChoose} onRemove={onRemove}
        {...props} />,
    );
    return { onChoose, onRemove };
  };

  it('takes a file dropped on it', async () => {
    const { onChoose } = shown();
    const file = new File(['%PDF-1.7'], 'dropped.pdf', { type: 'application/pdf' });
    const dataTransfer = {
      types: ['Files'],
      items: [{ kind: 'file', type: file.type, getAsFile: () => file }],
      files: [file],
      dropEffect: 'none',
      effectAllowed: 'all',
      getData: () => '',
    };
    const zone = screen.getByRole('button', { name: 'Attach a file' }).closest('.lc-file-uploader__zone') as HTMLElement;
    fireEvent.dragEnter(zone, { dataTransfer, clientX: 1, clientY: 1 });
    fireEvent.dragOver(zone, { dataTransfer, clientX: 1, clientY: 1 });
    await act(async () => {
      fireEvent.drop(zone, { dataTransfer, clientX: 1, clientY: 1 });
    });
    expect(onChoose).toHaveBeenCalledWith(file);
  });

  it('shows the file with its size and progress, and offers to remove it', async () => {
    const file = new File(['%PDF-1.7'], 'quote.pdf', { type: 'application/pdf' });
    const { onRemove } = shown({ file, status: 'Uploading', percent: 40 });
    expect(screen.getByText('quote.pdf')).toBeInTheDocument();
    expect(screen.getByText('8 Bytes')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Uploading' })).toHaveAttribute('aria-valuenow', '40');
    fireEvent.click(screen.getByRole('button', { name: 'Remove quote.pdf' }));
    expect(onRemove).toHaveBeenCalledOnce();
  });

  it('can be disabled', () => {
    shown({ isDisabled: true });
    expect(screen.getByRole('button', { name: 'Attach a file' })).toBeDisabled();
  });
});

describe('fileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024 - 1, '1 MB'],
    [1.5 * 1024 * 1024, '1.5 MB'],
    [26214400, '25 MB'],
    [1024 ** 3, '1 GB'],
    [1.25 * 1024 ** 3, '1.3 GB'],
  ])('%i bytes is %s', (bytes, expected) => {
    expect(fileSize(bytes)).toBe(expected);
  });
});
