import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useCallback, useContext, useEffect, useRef } from 'react';
import { DropZone, type DropItem, FileTrigger } from 'react-aria-components';
import type { SnapshotFrom } from 'xstate';
import { SAFE_UPLOAD_TYPES } from '../contract/uploads.ts';
import {
  type UploadErrorDetails,
  type UploadInput,
  type UploadedResult,
  uploadMachine,
} from '../machines/upload.machine.ts';
import { Button } from './Button.tsx';
import { fileSize } from './format.ts';
import { Message } from './Message.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import './FileUploader.css';

export interface FileUploaderProps extends UploadInput {
  /** The text of the button that opens the file picker. */
  label: string;
  isDisabled?: boolean;
  onUploaded?: (result: UploadedResult) => void;
  /** SPEC §8: the upload was answered outside 200-299. */
  onUploadError?: (details: UploadErrorDetails) => void;
  /** No HTTP answer, or another unexpected failure (already sent to error tracking). */
  onUploadFailed?: (error: unknown) => void;
  /** The uploaded file was removed or replaced: a key from onUploaded no longer applies. */
  onCleared?: () => void;
  /**
   * True when an upload begins (its presign included); false when it ends in any way (uploaded, failed, aborted,
   * removed, replaced, reset, or the uploader unmounted), after onUploaded, onUploadError or onUploadFailed.
   */
  onBusyChange?: (busy: boolean) => void;
  /**
   * Opens the file picker as it mounts, then calls back: for an uploader loaded by the press of a stand-in button
   * (the press still counts as the user's gesture), so that the press the user made is not lost.
   */
  onMountOpenPicker?: () => void;
}

/** The picker offers what the server accepts; HEIF/AVIF also by extension, for systems that do not type them. */
const ACCEPTED_FILE_TYPES = [...SAFE_UPLOAD_TYPES, '.heic', '.heif', '.avif'];

type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;

function statusOf(snapshot: UploadSnapshot): 'Uploading' | 'Uploaded' | null {
  if (snapshot.matches('busy')) return 'Uploading';
  if (snapshot.matches('uploaded')) return 'Uploaded';
  return null;
}

/** The first dropped file; the machine decides whether it is acceptable. */
async function firstFile(items: DropItem[]): Promise<File | null> {
  const item = items.find((candidate) => candidate.kind === 'file');
  return item ? item.getFile() : null;
}

/** An object URL made for the preview and revoked when the file changes or the preview unmounts. */
function ImagePreview({ file }: { file: File }) {
  const showFile = useCallback(
    (image: HTMLImageElement) => {
      const address = URL.createObjectURL(file);
      image.src = address;
      return () => URL.revokeObjectURL(address);
    },
    [file],
  );
  return <img ref={showFile} alt="" className="lc-file-uploader__preview" />;
}

/**
 * The upload statechart the uploaders below run: the real one, unless a screen provides another implementation of
 * its calls (the admin's survey preview keeps chosen files in the browser).
 */
export const UploadMachineContext = createContext(uploadMachine);

/**
 * SPEC §4 single-file upload: pick (or drop) one image or PDF; it is checked, uploaded with progress and shown with
 * its name, size and a preview. The `url`, `method` and `presign` in force when it mounts are the ones used.
 */
export function FileUploader({
  label,
  isDisabled = false,
  url,
  method,
  presign,
  onUploaded,
  onUploadError,
  onUploadFailed,
  onCleared,
  onBusyChange,
  onMountOpenPicker,
}: FileUploaderProps) {
  const actor = useActorRef(useContext(UploadMachineContext), { input: { url, method, presign } });
  const file = useSelector(actor, (snapshot) => snapshot.context.file);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const percent = useSelector(actor, (snapshot) => snapshot.context.percent);
  const status = useSelector(actor, statusOf);

  // The owner's latest callbacks, read when the machine emits (a new callback must not resubscribe).
  const callbacks = useRef({ onUploaded, onUploadError, onUploadFailed, onCleared, onBusyChange });
  useEffect(() => {
    callbacks.current = { onUploaded, onUploadError, onUploadFailed, onCleared, onBusyChange };
  });
  useEffect(() => {
    const subscriptions = [
      actor.on('uploaded', ({ key, file: uploadedFile, reset }) =>
        callbacks.current.onUploaded?.({ key, file: uploadedFile, reset }),
      ),
      actor.on('uploadError', ({ status: code, statusText, responseText }) =>
        callbacks.current.onUploadError?.({ status: code, statusText, responseText }),
      ),
      actor.on('uploadFailed', ({ error: failure }) => callbacks.current.onUploadFailed?.(failure)),
      actor.on('cleared', () => callbacks.current.onCleared?.()),
      actor.on('busy', ({ busy }) => callbacks.current.onBusyChange?.(busy)),
    ];
    return () => {
      subscriptions.forEach((subscription) => subscription.unsubscribe());
      // Unmounting stops the machine (and its transfer) without leaving its state: the owner must not wait on.
      if (actor.getSnapshot().matches('busy')) callbacks.current.onBusyChange?.(false);
    };
  }, [actor]);

  const picker = useRef<HTMLInputElement>(null);
  const openPickerOnMount = useRef(onMountOpenPicker);
  useEffect(() => {
    if (!openPickerOnMount.current) return;
    picker.current?.click();
    openPickerOnMount.current();
  }, []);

  const choose = (chosen: File | null | undefined) => {
    if (chosen) actor.send({ type: 'CHOOSE_FILE', file: chosen });
  };

  return (
    <div className="lc-file-uploader">
      <DropZone
        className="lc-file-uploader__zone"
        // Names the drop target that assistive technology offers; the picker button carries `label`.
        aria-label="Drop a file here"
        isDisabled={isDisabled}
        // Any file is taken in: a refused type is then explained, instead of the drop silently doing nothing.
        getDropOperation={() => 'copy'}
        onDrop={async (event) => choose(await firstFile(event.items))}
      >
        <FileTrigger ref={picker} acceptedFileTypes={ACCEPTED_FILE_TYPES} onSelect={(files) => choose(files?.[0])}>
          <Button variant="secondary" isDisabled={isDisabled}>
            {label}
          </Button>
        </FileTrigger>
      </DropZone>

      {file && (
        <div className="lc-file-uploader__file">
          {file.type.startsWith('image/') && <ImagePreview file={file} />}
          <div className="lc-file-uploader__details">
            <span className="lc-file-uploader__name">{file.name}</span>
            <span className="lc-file-uploader__size">{fileSize(file.size)}</span>
            {status && <ProgressBar label={status} value={status === 'Uploaded' ? 100 : percent} />}
          </div>
          <Button variant="tertiary" isDisabled={isDisabled} aria-label={`Remove ${file.name}`}
            onPress={() => actor.send({ type: 'REMOVE_FILE' })}>
            Remove
          </Button>
        </div>
      )}

      {error && <Message severity="error">{error}</Message>}
    </div>
  );
}
