import type { ReactNode } from 'react';
import { TextInput } from './TextInput.tsx';

/** SPEC §5: phone inputs are masked (999) 999-9999. */
export const DEFAULT_PHONE_MASK = '(999) 999-9999';

export interface PhoneInputProps {
  label: ReactNode;
  name?: string;
  placeholder?: string;
  isRequired?: boolean;
  errorMessage?: string;
  mask?: string;
  /** Shown in the unfilled mask positions of the placeholder. */
  slotChar?: string;
  value?: string;
  /** Receives the masked text, e.g. '(212) 555-1212'; use phoneDigits() for the number itself. */
  onChange?: (value: string) => void;
  onBlur?: () => void;
  description?: ReactNode;
  autoFocus?: boolean;
  isDisabled?: boolean;
  className?: string;
}

export function PhoneInput({ mask = DEFAULT_PHONE_MASK, slotChar = '_', ...rest }: PhoneInputProps) {
  return <TextInput {...rest} type="tel" inputMode="tel" autoComplete="tel-national" mask={mask} slotChar={slotChar} />;
}

/** The digits of a masked phone number: '(212) 555-1212' -> '2125551212'. */
export function phoneDigits(masked: string): string {
  return masked.replace(/\D/g, '');
}
