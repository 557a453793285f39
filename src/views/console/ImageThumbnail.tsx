import { useSelector } from '@xstate/react';
import { useFlow } from '../../machines/appSystem.tsx';
import { imagePreviewMachine } from '../../machines/imagePreview.machine.ts';
import { attachmentHref } from '../../services/threadRules.ts';
import '../requests/thumbnail.css';

/** An image attachment of the console's thread as a thumbnail that opens the file in a new tab; a link when it cannot show. */
export function ImageThumbnail({ fileKey }: { fileKey: string }) {
  const preview = useFlow(imagePreviewMachine, { id: 'imagePreview', input: { fileKey } });
  const url = useSelector(preview, (snapshot) => snapshot.context.url);
  const isLoading = useSelector(preview, (snapshot) => snapshot.matches('loading'));
  return (
    <a href={attachmentHref(fileKey)} target="_blank" rel="noopener noreferrer"
      className={url ? 'lc-console-entry__thumbnail' : undefined}>
      {url ? (
        <img src={url} className="lc-thumbnail" alt="Image attachment (opens in a new tab)" onError={() => preview.send({ type: 'IMAGE_FAILED' })} />
      ) : (
        <>{isLoading ? 'Loading image' : 'Open image'} (new tab)</>
      )}
    </a>
  );
}
