import { useCallback, useEffect, useRef } from 'react';
import { DropZone, type DropItem, FileTrigger } from 'react-aria-components';
import { SAFE_UPLOAD_TYPES, fileSize } from '../contract/uploads.ts';
import { Button } from './Button.tsx';
import { Message } from './Message.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import './FileUploader.css';

export interface FileUploaderProps {
  /** The text of the button that opens the file picker. */
  label: string;
  /** The selected file: shown with its name, size, and a preview when it is an image. */
  file: File | null;
  /** Whether the file is uploading (`percent` done) or uploaded; none for a file that waits. */
  status: 'Uploading' | 'Uploaded' | null;
  /** 0 to 100. */
  percent: number;
  /** The message in the error box. */
  error: string | null;
  isDisabled?: boolean;
  /** A file was picked or dropped; whether it is acceptable is for the caller to decide. */
  onChoose: (file: File) => void;
  onRemove: () => void;
  /**
   * Opens the file picker as it mounts, then calls back: for an uploader loaded by the press of a stand-in button
   * (the press still counts as the user's gesture), so that the press the user made is not lost.
   */
  onMountOpenPicker?: () => void;
}

/** The picker offers what the server accepts; HEIF/AVIF also by extension, for systems that do not type them. */
const ACCEPTED_FILE_TYPES = [...SAFE_UPLOAD_TYPES, '.heic', '.heif', '.avif'];

/** The first dropped file. */
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
 * SPEC §4 single-file upload, as shown: pick (or drop) one image or PDF; the file is shown with its name, size, a
 * preview and its progress, with a Remove button, and the error box says what went wrong.
 */
export function FileUploader({
  label,
  file,
  status,
  percent,
  error,
  isDisabled = false,
  onChoose,
  onRemove,
  onMountOpenPicker,
}: FileUploaderProps) {
  const picker = useRef<HTMLInputElement>(null);
  const openPickerOnMount = useRef(onMountOpenPicker);
  useEffect(() => {
    if (!openPickerOnMount.current) return;
    picker.current?.click();
    openPickerOnMount.current();
  }, []);

  const choose = (chosen: File | null | undefined) => {
    if (chosen) onChoose(chosen);
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
          <Button variant="tertiary" isDisabled={isDisabled} aria-label={`Remove ${file.name}`} onPress={onRemove}>
            Remove
          </Button>
        </div>
      )}

      {error && <Message severity="error">{error}</Message>}
    </div>
  );
}
