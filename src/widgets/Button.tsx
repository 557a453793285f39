import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Link as AriaLink,
  type ButtonProps as AriaButtonProps,
  type LinkProps as AriaLinkProps,
} from 'react-aria-components';
import { checkOption } from './optionCheck.ts';
import { useRipple } from './ripple.tsx';
import { Spinner } from './Spinner.tsx';
import './Button.css';

export const BUTTON_VARIANTS = ['primary', 'secondary', 'tertiary'] as const;
export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];
export const BUTTON_TYPES = ['button', 'submit'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children' | 'type' | 'isPending' | 'render'> {
  variant?: ButtonVariant;
  type?: ButtonType;
  /** Shows a spinner labelled 'Loading', blocks presses and marks the button busy, keeping it focusable. */
  isLoading?: boolean;
  children: ReactNode;
  className?: string;
}

function buttonClassName(variant: ButtonVariant, className: string | undefined): string {
  return ['lc-button', `lc-button--${variant}`, className].filter(Boolean).join(' ');
}

/**
 * Loading is not RAC's isPending: that announces through a live region that points at the button by id, and the
 * announcement outlives the button when the press navigates away (axe: role-img-alt). A loading button keeps its
 * focus, drops its press handler and stops being a submit button, so neither a click nor Enter acts twice.
 */
export function Button({
  variant = 'primary',
  type = 'button',
  isLoading = false,
  onPress,
  onPressStart,
  children,
  className,
  ...rest
}: ButtonProps) {
  checkOption('Button', 'variant', variant, BUTTON_VARIANTS);
  checkOption('Button', 'type', type, BUTTON_TYPES);
  const ripple = useRipple({ onPressStart, disabled: isLoading });
  return (
    <AriaButton {...rest} type={isLoading ? 'button' : type} onPress={isLoading ? undefined : onPress}
      onPressStart={ripple.onPressStart}
      className={buttonClassName(variant, className)}
      // RAC drops aria-busy from its props, so it is added on the element itself.
      render={(domProps) => <button {...domProps} aria-busy={isLoading || undefined} data-pending={isLoading || undefined} />}>
      {ripple.ripples}
      {isLoading && <Spinner size={18} className="lc-button__spinner" />}
      <span className="lc-button__label">{children}</span>
    </AriaButton>
  );
}

export interface LinkButtonProps extends Omit<AriaLinkProps, 'className' | 'children'> {
  href: string;
  variant?: ButtonVariant;
  children: ReactNode;
  className?: string;
}

/** A link that looks like a Button. A new-tab link gets rel 'noopener noreferrer' unless one is given. */
export function LinkButton({ variant = 'primary', children, className, target, rel, onPressStart, ...rest }: LinkButtonProps) {
  checkOption('LinkButton', 'variant', variant, BUTTON_VARIANTS);
  const ripple = useRipple({ onPressStart });
  return (
    <AriaLink {...rest} target={target} rel={rel ?? (target === '_blank' ? 'noopener noreferrer' : undefined)}
      onPressStart={ripple.onPressStart}
      className={buttonClassName(variant, className)}>
      {ripple.ripples}
      <span className="lc-button__label">{children}</span>
    </AriaLink>
  );
}
