/**
 * The admin API faked at the network level (network.support.ts), for the admin model tests: the app's own client and
 * services run as they are. Each admin call waits as a pending call under the invoke id of the actor that makes it,
 * and the path settles it: with the actor's output, sent back in the route's answer shape, or with ky's HTTPError
 * (httpFailures.support.ts), sent back as the server's error answer (status, message, fields); ky's NetworkError is a
 * network failure.
 */
import { act, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, it } from 'vitest';
import type { UploadReport } from '../../src/machines/upload.machine.ts';
import { FakeXMLHttpRequest } from './fakeXMLHttpRequest.support.ts';
import { type FakeRoute, type SentCall, fakeNetwork } from './network.support.ts';

export type { FakeRoute, SentCall };

/** A presign for a file upload, answered at once, so that an upload goes straight to its (fake) transfer. */
export const PRESIGNED_LOGO = { key: 'uploads/new-logo', presigned_url: 'https://files.example/new-logo' };

/** Installs the fake admin API (and the presign of uploads); returns every call sent, oldest first. */
export function fakeAdminApi(routes: readonly FakeRoute[]): SentCall[] {
  return fakeNetwork([...routes, { method: 'POST', path: /^uploads\/presigned_url$/, answer: () => PRESIGNED_LOGO }]).sent;
}

/** Each field shows the message the form holds for it, tied to it as its description, and no other is marked. */
export function expectFieldMessages(fields: Record<string, HTMLElement>, fieldErrors: Record<string, string>): void {
  for (const [name, input] of Object.entries(fields)) {
    const message = fieldErrors[name];
    if (message) {
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    } else {
      expect(input).not.toHaveAttribute('aria-invalid');
    }
  }
}

const IMAGE_NAME = 'logo.png';

/**
 * What a form's image upload (a child actor of the screen's machine) tells the machine, as the models offer them: the
 * image stored under the presigned key, the storage refusing it, the uploaded image removed.
 */
export const IMAGE_UPLOAD_REPORTS = {
  uploaded: { type: 'UPLOADED', uploadId: 'upload', key: PRESIGNED_LOGO.key, fileName: IMAGE_NAME },
  failed: {
    type: 'UPLOAD_FAILED',
    uploadId: 'upload',
    failure: { kind: 'http', status: 500, statusText: 'Internal Server Error', responseText: '' },
  },
  cleared: { type: 'UPLOAD_CLEARED', uploadId: 'upload' },
} as const satisfies Record<string, UploadReport>;

/** Chooses an image in the form's uploader; its presign is answered at once, and its transfer is left waiting. */
export async function startImageUpload(user: UserEvent, form: HTMLElement): Promise<FakeXMLHttpRequest> {
  const transfersBefore = FakeXMLHttpRequest.sent.length;
  await user.upload(form.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement, new File(['png'], IMAGE_NAME, { type: 'image/png' }));
  await waitFor(() => expect(FakeXMLHttpRequest.sent).toHaveLength(transfersBefore + 1));
  const transfer = FakeXMLHttpRequest.sent.at(-1) as FakeXMLHttpRequest;
  expect(transfer.url).toBe(PRESIGNED_LOGO.presigned_url);
  return transfer;
}

/** The executors of the image upload's reports, in the form `form()` finds. */
export function imageUploadExecutors(user: () => UserEvent, form: () => HTMLElement) {
  const uploadAnswered = (status: number) => async () => {
    const transfer = await startImageUpload(user(), form());
    await act(async () => transfer.respond(status));
  };
  return {
    UPLOADED: uploadAnswered(200),
    UPLOAD_FAILED: uploadAnswered(IMAGE_UPLOAD_REPORTS.failed.failure.status),
    UPLOAD_CLEARED: () => user().click(within(form()).getByRole('button', { name: `Remove ${IMAGE_NAME}` })),
  };
}

/** An admin form whose image is an upload, a child actor of the screen's machine: what its tests need of the screen. */
export interface FormWithImage {
  /** What the form saves, in the tests' titles ('company', 'category'). */
  saves: string;
  dialog: () => HTMLElement;
  user: () => UserEvent;
  saveButton: string | RegExp;
  /** The message Save shows while the image still uploads. */
  stillUploading: string;
  /** Whether the screen's machine is still in the form. */
  isEditing: () => boolean;
  sent: () => readonly SentCall[];
  /** The call that saves, with the uploaded image's key. */
  savedWith: { path: string; body: Record<string, unknown> };
  /** What else is checked once the save with the image was sent, and once the upload failed. */
  afterSave?: () => Promise<void>;
  afterFailure?: () => void;
}

/** Save waits for the form's image to upload (and then sends its key); an upload that fails leaves nothing to wait for. */
export function itWaitsForTheFormImage(form: FormWithImage): void {
  const save = () => form.user().click(within(form.dialog()).getByRole('button', { name: form.saveButton }));
  const waitMessage = () => within(form.dialog()).queryByText(form.stillUploading);

  it(`is waited for: no save while it uploads, and the saved ${form.saves} has it`, async () => {
    const transfer = await startImageUpload(form.user(), form.dialog());
    await save();
    expect(waitMessage()).toBeInTheDocument();
    expect(form.isEditing()).toBe(true);

    await act(async () => transfer.respond(200));
    expect(waitMessage()).not.toBeInTheDocument();
    await save();
    expect(form.sent().at(-1)).toMatchObject({ method: 'POST', ...form.savedWith });
    await form.afterSave?.();
  });

  it('that fails, leaves nothing to wait for', async () => {
    const transfer = await startImageUpload(form.user(), form.dialog());
    await save();
    expect(waitMessage()).toBeInTheDocument();
    await act(async () => transfer.respond(500));
    expect(waitMessage()).not.toBeInTheDocument();
    form.afterFailure?.();
  });
}
