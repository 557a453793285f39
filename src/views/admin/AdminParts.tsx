import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { AdminCollectionActor } from '../../machines/adminCollection.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { StatusBadge } from '../../widgets/StatusBadge.tsx';
import { UploadField } from '../UploadField.tsx';

/** The parts the admin screens share: the list's frame, an account's status, an uploaded image. */

export interface AdminListFrameProps {
  heading: string;
  /** The screen's main action, beside its heading. */
  action?: ReactNode;
  isBusy: boolean;
  loadError: string | null;
  onRetry: () => void;
  /** What the last change did (polite), or a refusal that names no field (assertive). */
  notice: string | null;
  refusal?: string | null;
  /** Null while the list has not arrived. */
  isLoaded: boolean;
  /** What narrows the list (the audit log's filters), shown while it loads too. */
  filters?: ReactNode;
  children: ReactNode;
}

export function AdminListFrame({ heading, action, isBusy, loadError, onRetry, notice, refusal, isLoaded, filters, children }: AdminListFrameProps) {
  return (
    <section className="lc-admin-screen" aria-labelledby="admin-screen-heading" aria-busy={isBusy}>
      <div className="lc-admin-bar">
        <h1 id="admin-screen-heading">{heading}</h1>
        {action}
      </div>
      {filters}
      {notice && (
        <Message key={notice} severity="success">
          {notice}
        </Message>
      )}
      {refusal && (
        <Message key={refusal} severity="error">
          {refusal}
        </Message>
      )}
      {loadError ? (
        <div className="lc-failure">
          <Message severity="error">{loadError}</Message>
          <Button variant="secondary" onPress={onRetry}>
            Try again
          </Button>
        </div>
      ) : isLoaded ? (
        children
      ) : (
        <Skeleton lines={6} />
      )}
    </section>
  );
}

/** 'Active', 'Invited' (an account whose invitation is not accepted yet), or when it was deactivated. */
export function ActiveStatus({ active, invited = false, deactivatedAt }: { active: boolean; invited?: boolean; deactivatedAt: string | null }) {
  if (!active) {
    const since = deactivatedAt ? ` since ${new Date(deactivatedAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}` : '';
    return <StatusBadge tone="neutral">Deactivated{since}</StatusBadge>;
  }
  return invited ? <StatusBadge tone="info">Invited</StatusBadge> : <StatusBadge tone="success">Active</StatusBadge>;
}

export interface ImageUploadFieldProps {
  legend: string;
  isOptional?: boolean;
  /** The screen whose open form has the image (its uploader, and the image as it is now). */
  actor: AdminCollectionActor;
  /** The image as it is now, described. */
  alt: string;
  /** Offered when the image can be taken away. */
  removal?: { label: string; onRemove: () => void };
  chooseLabel: string;
  replaceLabel: string;
  isDisabled: boolean;
  errorMessage?: string;
}

/** An image uploaded in a form (POST /uploads/presigned_url without a request): the current one, and the uploader. */
export function ImageUploadField({
  legend, isOptional = false, actor, alt, removal, chooseLabel, replaceLabel, isDisabled, errorMessage,
}: ImageUploadFieldProps) {
  const upload = useSelector(actor, (snapshot) => snapshot.context.upload);
  const imageUrl = useSelector(actor, (snapshot) => snapshot.context.form?.imageUrl);
  return (
    <fieldset className="lc-admin-logo">
      <legend className="lc-field__label">
        {legend}
        {isOptional && <> <span className="lc-field__optional">(optional)</span></>}
      </legend>
      {imageUrl && (
        <div className="lc-admin-logo__current">
          <img src={imageUrl} alt={alt} height={40} />
          {removal && <Button variant="tertiary" onPress={removal.onRemove}>{removal.label}</Button>}
        </div>
      )}
      {upload && <UploadField upload={upload} label={imageUrl ? replaceLabel : chooseLabel} isDisabled={isDisabled} />}
      {errorMessage && <Message severity="error">{errorMessage}</Message>}
    </fieldset>
  );
}
