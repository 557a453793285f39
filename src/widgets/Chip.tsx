import type { ReactNode } from 'react';
import {
  Checkbox,
  FieldError,
  Label,
  Link as AriaLink,
  Radio,
  RadioGroup,
  ToggleButton,
} from 'react-aria-components';
import { ErrorIcon, ExternalLinkIcon } from './icons.tsx';
import { checkOption } from './optionCheck.ts';
import './Chip.css';

/** SPEC §5 widget option checks. */
export const CHIP_VARIANTS = ['button', 'link', 'external-link', 'radio', 'checkbox'] as const;
export type ChipVariant = (typeof CHIP_VARIANTS)[number];
export const CHIP_IMAGES = ['default'] as const;
export type ChipImage = (typeof CHIP_IMAGES)[number];

interface ChipContentProps {
  title: string;
  /** Required (SPEC §5). Title and description are each clamped to two lines. */
  description: string;
  /** Only 'default': a generic illustration before the text. */
  image?: ChipImage;
  isDisabled?: boolean;
  className?: string;
}

/** Toggles between pressed and not pressed. */
export interface ButtonChipProps extends ChipContentProps {
  variant?: 'button';
  isSelected?: boolean;
  defaultSelected?: boolean;
  onChange?: (isSelected: boolean) => void;
}

export interface LinkChipProps extends ChipContentProps {
  variant: 'link';
  href: string;
}

/** Opens in a new tab, without giving the page access to this one. */
export interface ExternalLinkChipProps extends ChipContentProps {
  variant: 'external-link';
  href: string;
}

/** One option of a ChipRadioGroup; selecting it again keeps it selected. Invalid state is the group's. */
export interface RadioChipProps extends ChipContentProps {
  variant: 'radio';
  value: string;
}

export interface CheckboxChipProps extends ChipContentProps {
  variant: 'checkbox';
  name?: string;
  value?: string;
  isSelected?: boolean;
  defaultSelected?: boolean;
  onChange?: (isSelected: boolean) => void;
  isInvalid?: boolean;
}

export type ChipProps = ButtonChipProps | LinkChipProps | ExternalLinkChipProps | RadioChipProps | CheckboxChipProps;

function DefaultChipImage() {
  return (
    <svg className="lc-chip__image" width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="20" fill="var(--lc-color-primary-tint)" />
      <path d="M20 10l2.6 6.4L29 19l-6.4 2.6L20 28l-2.6-6.4L11 19l6.4-2.6z" fill="none" stroke="var(--lc-color-primary)"
        strokeWidth="1.75" strokeLinejoin="round" />
    </svg>
  );
}

function SelectionMark({ kind }: { kind: 'radio' | 'checkbox' }) {
  return (
    <svg className={`lc-chip__mark lc-chip__mark--${kind}`} width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      {kind === 'radio'
        ? <><circle cx="10" cy="10" r="8.5" className="lc-chip__mark-frame" /><circle cx="10" cy="10" r="4.5" className="lc-chip__mark-fill" /></>
        : <><rect x="1.5" y="1.5" width="17" height="17" rx="4" className="lc-chip__mark-frame" /><path d="M5.5 10.5l3 3 6-7" className="lc-chip__mark-check" /></>}
    </svg>
  );
}

function ChipContent({ title, description, image, trailing, leading }: {
  title: string; description: string; image?: ChipImage; trailing?: ReactNode; leading?: ReactNode;
}) {
  return (
    <>
      {leading}
      {image === 'default' && <DefaultChipImage />}
      <span className="lc-chip__text">
        <span className="lc-chip__title">{title}</span>
        <span className="lc-chip__description">{description}</span>
      </span>
      {trailing}
    </>
  );
}

function checkChipOptions(props: ChipProps): void {
  checkOption('Chip', 'variant', props.variant, CHIP_VARIANTS);
  checkOption('Chip', 'image', props.image, CHIP_IMAGES);
  if (import.meta.env.DEV && !props.description?.trim()) console.error(`Chip: description is required (chip '${props.title}')`);
}

const chipClassName = (variant: ChipVariant, className: string | undefined) =>
  ['lc-chip', `lc-chip--${variant}`, className].filter(Boolean).join(' ');

export function Chip(props: ChipProps) {
  checkChipOptions(props);
  const content = { title: props.title, description: props.description, image: props.image };
  switch (props.variant) {
    case 'link':
      return (
        <AriaLink href={props.href} isDisabled={props.isDisabled} className={chipClassName('link', props.className)}>
          <ChipContent {...content} />
        </AriaLink>
      );
    case 'external-link':
      return (
        <AriaLink href={props.href} target="_blank" rel="noopener noreferrer" isDisabled={props.isDisabled}
          className={chipClassName('external-link', props.className)}>
          <ChipContent {...content}
            trailing={<><ExternalLinkIcon size={18} className="lc-chip__trailing-icon" /><span className="lc-visually-hidden"> (opens in a new tab)</span></>} />
        </AriaLink>
      );
    case 'radio':
      return (
        <Radio value={props.value} isDisabled={props.isDisabled} className={chipClassName('radio', props.className)}>
          <ChipContent {...content} leading={<SelectionMark kind="radio" />} />
        </Radio>
      );
    case 'checkbox':
      return (
        <Checkbox name={props.name} value={props.value} isSelected={props.isSelected} defaultSelected={props.defaultSelected}
          onChange={props.onChange} isDisabled={props.isDisabled} isInvalid={props.isInvalid}
          className={chipClassName('checkbox', props.className)}>
          <ChipContent {...content} leading={<SelectionMark kind="checkbox" />} />
        </Checkbox>
      );
    default:
      return (
        <ToggleButton isSelected={props.isSelected} defaultSelected={props.defaultSelected} onChange={props.onChange}
          isDisabled={props.isDisabled} className={chipClassName('button', props.className)}>
          <ChipContent {...content} />
        </ToggleButton>
      );
  }
}

export interface ChipRadioGroupProps {
  label: string;
  /** The group's label is still read by screen readers when hidden. */
  isLabelHidden?: boolean;
  name?: string;
  value?: string | null;
  defaultValue?: string;
  onChange?: (value: string) => void;
  isDisabled?: boolean;
  isRequired?: boolean;
  /** Puts every radio chip of the group in the error state and shows the message. */
  errorMessage?: string;
  orientation?: 'horizontal' | 'vertical';
  children: ReactNode;
  className?: string;
}

/** Holds radio chips: one is selected at a time, arrow keys move between them. */
export function ChipRadioGroup({
  label, isLabelHidden = false, errorMessage, orientation = 'horizontal', children, className, ...rest
}: ChipRadioGroupProps) {
  return (
    <RadioGroup {...rest} orientation={orientation} isInvalid={Boolean(errorMessage)} validationBehavior="aria"
      className={['lc-chip-group', className].filter(Boolean).join(' ')}>
      <Label className={isLabelHidden ? 'lc-visually-hidden' : 'lc-chip-group__label'}>{label}</Label>
      <div className="lc-chip-group__options" data-orientation={orientation}>{children}</div>
      <FieldError className="lc-chip-group__error">
        <ErrorIcon size={16} className="lc-chip-group__error-icon" />
        <span>{errorMessage}</span>
      </FieldError>
    </RadioGroup>
  );
}
