import { useSelector } from '@xstate/react';
import { type UploadActor, uploadStatus } from '../machines/upload.machine.ts';
import { FileUploader } from '../widgets/FileUploader.tsx';

export interface UploadFieldProps {
  /** The upload, a child actor of the flow the file is for. */
  upload: UploadActor;
  label: string;
  isDisabled?: boolean;
  onMountOpenPicker?: () => void;
}

/** The file uploader of an upload actor: it shows the upload's snapshot and sends it the user's choices. */
export function UploadField({ upload, label, isDisabled, onMountOpenPicker }: UploadFieldProps) {
  const file = useSelector(upload, (snapshot) => snapshot.context.file);
  const percent = useSelector(upload, (snapshot) => snapshot.context.percent);
  const error = useSelector(upload, (snapshot) => snapshot.context.error);
  const status = useSelector(upload, uploadStatus);
  return (
    <FileUploader label={label} file={file} status={status} percent={percent} error={error} isDisabled={isDisabled}
      onMountOpenPicker={onMountOpenPicker}
      onChoose={(chosen) => upload.send({ type: 'CHOOSE_FILE', file: chosen })}
      onRemove={() => upload.send({ type: 'REMOVE_FILE' })} />
  );
}
