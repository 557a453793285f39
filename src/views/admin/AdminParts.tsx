import type { ReactNode } from 'react';
import { Dialog, FieldError, Heading, Label, Modal, ModalOverlay, Radio, RadioGroup } from 'react-aria-components';
import { Button } from '../../widgets/Button.tsx';
import { FileUploader } from '../../widgets/FileUploader.tsx';
import { ErrorIcon } from '../../widgets/icons.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';

/** The parts the admin screens share: the list's frame, a choice of a few options, the confirmation, an uploaded image. */

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
  children: ReactNode;
}

export function AdminListFrame({ heading, action, isBusy, loadError, onRetry, notice, refusal, isLoaded, children }: AdminListFrameProps) {
  return (
    <section className="lc-admin-screen" aria-labelledby="admin-screen-heading" aria-busy={isBusy}>
      <div className="lc-admin-screen__top">
        <h1 id="admin-screen-heading">{heading}</h1>
        {action}
      </div>
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

export interface ChoiceFieldProps<V extends string> {
  label: string;
  options: ReadonlyArray<{ value: V; label: string; description?: string }>;
  value: V;
  onChange: (value: V) => void;
  errorMessage?: string;
}

/** A labelled radio group whose error is tied to it, as TextInput ties its own. */
export function ChoiceField<V extends string>({ label, options, value, onChange, errorMessage }: ChoiceFieldProps<V>) {
  return (
    <RadioGroup className="lc-field lc-admin-choice" value={value} onChange={(chosen) => onChange(chosen as V)}
      isInvalid={Boolean(errorMessage)} validationBehavior="aria">
      <Label className="lc-field__label">{label}</Label>
      <div className="lc-admin-choice__options">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} className="lc-admin-choice__option">
            <span className="lc-admin-choice__dot" aria-hidden="true" />
            <span>
              {option.label}
              {option.description && <span className="lc-admin-choice__description">{option.description}</span>}
            </span>
          </Radio>
        ))}
      </div>
      <FieldError className="lc-field__error">
        <ErrorIcon size={16} className="lc-field__error-icon" />
        <span>{errorMessage}</span>
      </FieldError>
    </RadioGroup>
  );
}

export interface ConfirmDialogProps {
  isOpen: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  isConfirming: boolean;
  refusal: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a change that signs people out (deactivation) or lets them back in (reactivation). */
export function ConfirmDialog({ isOpen, title, children, confirmLabel, isConfirming, refusal, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && !isConfirming && onCancel()} isDismissable={!isConfirming}
      className="lc-admin-confirm-overlay">
      <Modal className="lc-admin-confirm">
        <Dialog role="alertdialog" className="lc-admin-confirm__dialog">
          <Heading slot="title" className="lc-admin-confirm__title">
            {title}
          </Heading>
          <div className="lc-admin-confirm__body">{children}</div>
          {refusal && <Message severity="error">{refusal}</Message>}
          <div className="lc-admin-actions">
            <Button onPress={onConfirm} isLoading={isConfirming}>
              {confirmLabel}
            </Button>
            <Button variant="secondary" onPress={onCancel} isDisabled={isConfirming}>
              Cancel
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** 'Active', or when it was deactivated. */
export function ActiveStatus({ active, deactivatedAt }: { active: boolean; deactivatedAt: string | null }) {
  if (active) return <span className="lc-admin-status lc-admin-status--active">Active</span>;
  const since = deactivatedAt ? ` since ${new Date(deactivatedAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}` : '';
  return <span className="lc-admin-status lc-admin-status--inactive">Deactivated{since}</span>;
}

export interface UploadedImageFieldProps {
  /** What the picture is, in lower case: 'logo', 'image'. */
  noun: string;
  isOptional: boolean;
  /** The picture as it is now, and what it shows. */
  current: { url: string; alt: string } | null;
  /** Given when the current picture can be taken away. */
  onRemove?: () => void;
  isDisabled: boolean;
  errorMessage: string | undefined;
  /** The key of the uploaded file, for the form to send. */
  onUploaded: (key: string) => void;
  onCleared: () => void;
  onBusyChange: (busy: boolean) => void;
}

/** A picture uploaded through the uploads route (a company's logo, a category's image): the current one, and a new one. */
export function UploadedImageField({ noun, isOptional, current, onRemove, isDisabled, errorMessage, onUploaded, onCleared, onBusyChange }: UploadedImageFieldProps) {
  const article = /^[aeiou]/.test(noun) ? 'an' : 'a';
  return (
    <fieldset className="lc-admin-logo">
      <legend className="lc-field__label">
        {noun[0]!.toUpperCase()}{noun.slice(1)} {isOptional && <span className="lc-field__optional">(optional)</span>}
      </legend>
      {current && (
        <div className="lc-admin-logo__current">
          <img src={current.url} alt={current.alt} height={40} />
          {onRemove && <Button variant="tertiary" onPress={onRemove}>Remove {noun}</Button>}
        </div>
      )}
      <FileUploader label={current ? `Replace the ${noun}` : `Choose ${article} ${noun}`} presign={{}} isDisabled={isDisabled}
        onUploaded={({ key }) => key && onUploaded(key)} onCleared={onCleared} onBusyChange={onBusyChange} />
      {errorMessage && <Message severity="error">{errorMessage}</Message>}
    </fieldset>
  );
}
