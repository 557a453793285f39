import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Dialog,
  FieldError,
  Heading,
  type Key,
  Label,
  ListBox,
  ListBoxItem,
  Modal,
  ModalOverlay,
  Popover,
  Radio,
  RadioGroup,
  Select,
  SelectValue,
  Text,
} from 'react-aria-components';
import type { UploadActor } from '../../machines/upload.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { ErrorIcon } from '../../widgets/icons.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { UploadField } from '../UploadField.tsx';

/**
 * The parts the admin screens share: the list's frame, a choice of a few options, a pick from a list, an uploaded
 * image, and the confirmation.
 */

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
  /** The button that leaves things as they are (default 'Cancel'). */
  cancelLabel?: string;
  isConfirming: boolean;
  refusal: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a change that cannot be taken back by Cancel: a deactivation, a reactivation, discarded typing. */
export function ConfirmDialog({
  isOpen, title, children, confirmLabel, cancelLabel = 'Cancel', isConfirming, refusal, onConfirm, onCancel,
}: ConfirmDialogProps) {
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
              {cancelLabel}
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

export interface SelectFieldProps<K extends Key> {
  label: string;
  options: ReadonlyArray<{ id: K; label: string }>;
  value: K;
  onChange: (value: K) => void;
  description?: string;
  errorMessage?: string;
  isDisabled?: boolean;
}

/** A labelled pick from a list (too many options for ChoiceField's radios), its error tied to it. */
export function SelectField<K extends Key>({ label, options, value, onChange, description, errorMessage, isDisabled }: SelectFieldProps<K>) {
  return (
    <Select className="lc-field lc-admin-select-field" selectedKey={value} onSelectionChange={(chosen) => chosen !== null && onChange(chosen as K)}
      isInvalid={Boolean(errorMessage)} isDisabled={isDisabled} validationBehavior="aria">
      <Label className="lc-field__label">{label}</Label>
      <AriaButton className="lc-admin-select__button">
        <SelectValue />
        <span aria-hidden="true" className="lc-admin-select__chevron">▾</span>
      </AriaButton>
      {description && <Text slot="description" className="lc-field__description">{description}</Text>}
      <FieldError className="lc-field__error">
        <ErrorIcon size={16} className="lc-field__error-icon" />
        <span>{errorMessage}</span>
      </FieldError>
      <Popover className="lc-admin-select__popover">
        <ListBox className="lc-admin-select__list" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} className="lc-admin-select__option">
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

export interface ImageUploadFieldProps {
  legend: string;
  isOptional?: boolean;
  /** The image as it is now, until another one is uploaded or it is removed. */
  current: { url: string; alt: string } | null;
  /** Offered when the image can be taken away. */
  removal?: { label: string; onRemove: () => void };
  chooseLabel: string;
  replaceLabel: string;
  isDisabled: boolean;
  errorMessage?: string;
  /** The form's uploader (its machine takes the uploaded image's key). */
  upload: UploadActor | null;
}

/** An image uploaded in a form (POST /uploads/presigned_url without a request): the current one, and the uploader. */
export function ImageUploadField({
  legend, isOptional = false, current, removal, chooseLabel, replaceLabel, isDisabled, errorMessage, upload,
}: ImageUploadFieldProps) {
  return (
    <fieldset className="lc-admin-logo">
      <legend className="lc-field__label">
        {legend}
        {isOptional && <> <span className="lc-field__optional">(optional)</span></>}
      </legend>
      {current && (
        <div className="lc-admin-logo__current">
          <img src={current.url} alt={current.alt} height={40} />
          {removal && <Button variant="tertiary" onPress={removal.onRemove}>{removal.label}</Button>}
        </div>
      )}
      {upload && <UploadField upload={upload} label={current ? replaceLabel : chooseLabel} isDisabled={isDisabled} />}
      {errorMessage && <Message severity="error">{errorMessage}</Message>}
    </fieldset>
  );
}
