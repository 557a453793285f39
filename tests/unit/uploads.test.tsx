import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { previewUploadMachine } from '../../src/machines/surveyPreview.ts';
import { uploadMachine } from '../../src/machines/upload.machine.ts';
import {
  UploadAbortedError,
  UploadHttpError,
  UploadNetworkError,
  getExpiringUrl,
  requestPresignedUrl,
  uploadFile,
} from '../../src/services/uploads.ts';
import { FileUploader, UploadMachineContext } from '../../src/widgets/FileUploader.tsx';
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

  it('rejects a non-2xx answer with its status, status text and body', async () => {
    const done = uploadFile({ url: '/api/storage/k', file: new File(['x'], 'a.png', { type: 'image/png' }), method: 'POST' });
    expect(sent().method).toBe('POST');
    Object.assign(sent(), { status: 415, statusText: 'Unsupported Media Type', responseText: '{"error":"Only images or PDFs are allowed."}' });
    sent().dispatchEvent(new Event('load'));
    await expect(done).rejects.toMatchObject({
      name: 'UploadHttpError',
      status: 415,
      statusText: 'Unsupported Media Type',
      responseText: '{"error":"Only images or PDFs are allowed."}',
    });
  });

  it('rejects a network failure and an abort with their own errors', async () => {
    const failing = uploadFile({ url: '/k', file: new File(['x'], 'a.png') });
    sent().dispatchEvent(new Event('error'));
    await expect(failing).rejects.toBeInstanceOf(UploadNetworkError);

    const controller = new AbortController();
    const aborted = uploadFile({ url: '/k', file: new File(['x'], 'a.png'), signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(UploadAbortedError);

    const sentBefore = FakeXMLHttpRequest.sent.length;
    await expect(uploadFile({ url: '/k', file: new File(['x'], 'a.png'), signal: controller.signal })).rejects.toBeInstanceOf(
      UploadAbortedError,
    );
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

  it('turns a refused presign into an UploadHttpError carrying the answer', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ error: 'Request not found' }, 404)));
    const failure = await requestPresignedUrl('photo.png', 99).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UploadHttpError);
    expect(failure).toMatchObject({ status: 404, responseText: '{"error":"Request not found"}' });
  });

  it('keeps an absolute expiring address as it is', async () => {
    const fetch = vi.fn(async (_request: Request) => jsonResponse({ expiring_url: 'https://bucket.example.com/abc.png?X-Amz-Signature=1' }));
    vi.stubGlobal('fetch', fetch);
    await expect(getExpiringUrl('abc.png')).resolves.toBe('https://bucket.example.com/abc.png?X-Amz-Signature=1');
    expect(new URL(fetch.mock.calls[0][0].url).search).toBe('?key=abc.png');
  });
});

describe('FileUploader', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost:3000/preview');
    URL.revokeObjectURL = vi.fn();
  });

  it('takes a file dropped on it', async () => {
    render(<FileUploader label="Attach a file" url="https://bucket.example.com/put" />);
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
    expect(await screen.findByText('dropped.pdf')).toBeInTheDocument();
    expect(sent().body).toBe(file);
  });

  const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
  const answerTransfer = (status: number) =>
    act(async () => {
      Object.assign(sent(), { status });
      sent().dispatchEvent(new Event('load'));
    });

  it('tells its owner an upload is under way from the presign to the last byte, and that it ended after how', async () => {
    let answerPresign: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answerPresign = resolve))));
    const onBusyChange = vi.fn<(busy: boolean) => void>();
    const onUploaded = vi.fn();
    render(<FileUploader label="Attach a file" presign={{ requestId: 3 }} onBusyChange={onBusyChange} onUploaded={onUploaded} />);

    // A photo the browser gives no type: uploaded like any other.
    await userEvent.upload(fileInput(), new File(['heic bytes'], 'IMG_0001.HEIC'));
    expect(onBusyChange.mock.calls).toEqual([[true]]);
    await act(async () => answerPresign(jsonResponse({ presigned_url: '/api/storage/k.heic?signature=s', key: 'k.heic' })));
    expect(sent().body).toBeInstanceOf(File);
    expect(onBusyChange.mock.calls).toEqual([[true]]);

    await answerTransfer(200);
    expect(onBusyChange.mock.calls).toEqual([[true], [false]]);
    expect(onUploaded).toHaveBeenCalledOnce();
    expect(onUploaded.mock.invocationCallOrder[0]).toBeLessThan(onBusyChange.mock.invocationCallOrder[1] ?? 0);
  });

  it("in the admin's survey preview, shows a chosen file as uploaded and sends nothing", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const onUploaded = vi.fn();
    render(
      <UploadMachineContext.Provider value={previewUploadMachine}>
        <FileUploader label="Choose a file" presign={{}} onUploaded={onUploaded} />
      </UploadMachineContext.Provider>,
    );
    await userEvent.upload(fileInput(), new File(['png bytes'], 'receipt.png', { type: 'image/png' }));
    expect(await screen.findByText('Uploaded')).toBeInTheDocument();
    expect(onUploaded).toHaveBeenCalledWith(expect.objectContaining({ key: 'preview/receipt.png' }));
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(FakeXMLHttpRequest.sent).toEqual([]);
  });

  it('tells its owner an upload ended when it is removed, when the transfer fails, and when the uploader goes away', async () => {
    const onBusyChange = vi.fn<(busy: boolean) => void>();
    const onUploadError = vi.fn();
    const onUploadFailed = vi.fn();
    const { unmount } = render(
      <FileUploader label="Attach a file" url="https://bucket.example.com/put" onBusyChange={onBusyChange}
        onUploadError={onUploadError} onUploadFailed={onUploadFailed} />,
    );
    const photo = () => new File(['png bytes'], 'photo.png', { type: 'image/png' });

    await userEvent.upload(fileInput(), photo());
    await userEvent.click(screen.getByRole('button', { name: 'Remove photo.png' }));
    expect(onBusyChange.mock.calls).toEqual([[true], [false]]);
    // Cancelled, not failed.
    expect(onUploadError).not.toHaveBeenCalled();
    expect(onUploadFailed).not.toHaveBeenCalled();

    await userEvent.upload(fileInput(), photo());
    await answerTransfer(503);
    expect(onBusyChange.mock.calls).toEqual([[true], [false], [true], [false]]);
    expect(onUploadError).toHaveBeenCalledOnce();

    await userEvent.upload(fileInput(), new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' }));
    expect(onBusyChange).toHaveBeenLastCalledWith(true);
    unmount();
    expect(onBusyChange.mock.calls).toEqual([[true], [false], [true], [false], [true], [false]]);
  });

  it('can be disabled', () => {
    render(<FileUploader label="Attach a file" url="https://bucket.example.com/put" isDisabled />);
    expect(screen.getByRole('button', { name: 'Attach a file' })).toBeDisabled();
  });
});
