import { type FormEvent, useState } from 'react';
import {
  EMAIL_PATTERN,
  MFA_CODE_PATTERN,
  MFA_PHONE_PATTERN,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from '../contract/account.rules.ts';

/** SPEC §5 field messages, verbatim. */
export const FIELD_MESSAGES = {
  emailMissing: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  passwordMissing: 'Please enter your password',
  passwordInvalid: 'Please enter a valid password',
  firstNameMissing: 'Please enter your first name',
  lastNameMissing: 'Please enter your last name',
  newPasswordMissing: 'Please enter a new password',
  confirmationMissing: 'Please confirm your new password',
  passwordsDiffer: 'Passwords do not match',
  codeMissing: 'Please enter the verification code sent to your phone number',
  codeInvalid: 'Please enter a valid verification code',
  phoneInvalid: 'Please enter a valid phone number',
} as const;

/** SPEC §5 example phone number, shown as the phone field's placeholder. */
export const PHONE_PLACEHOLDER = '2125551212';

export function emailError(email: string): string | undefined {
  const trimmed = email.trim();
  if (trimmed === '') return FIELD_MESSAGES.emailMissing;
  return EMAIL_PATTERN.test(trimmed) ? undefined : FIELD_MESSAGES.emailInvalid;
}

/** Required, then 6-128 characters (SPEC §5, §9); `missing` is the form's own "enter it" message. */
export function passwordError(password: string, missing: string = FIELD_MESSAGES.passwordMissing): string | undefined {
  if (password === '') return missing;
  return password.length < PASSWORD_MIN || password.length > PASSWORD_MAX ? FIELD_MESSAGES.passwordInvalid : undefined;
}

export function requiredError(value: string, missing: string): string | undefined {
  return value.trim() === '' ? missing : undefined;
}

export function mfaCodeError(code: string): string | undefined {
  const trimmed = code.trim();
  if (trimmed === '') return FIELD_MESSAGES.codeMissing;
  return MFA_CODE_PATTERN.test(trimmed) ? undefined : FIELD_MESSAGES.codeInvalid;
}

/** `digits` is the phone number without its mask, e.g. phoneDigits('(212) 555-1212'). */
export function phoneError(digits: string): string | undefined {
  return MFA_PHONE_PATTERN.test(digits) ? undefined : FIELD_MESSAGES.phoneInvalid;
}

type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/**
 * The typing state of a form (not flow state: the statechart decides what happens with the values).
 * Errors show once the user has tried to submit, and then follow every keystroke. Submitting an invalid form moves
 * the focus to its first invalid field, so keyboard and screen-reader users land on the message.
 */
export function useForm<V extends Record<string, string>>(initial: V, validate: (values: V) => FieldErrors<V>) {
  const [values, setValues] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const errors: FieldErrors<V> = attempted ? validate(values) : {};

  const field = <K extends keyof V & string>(name: K) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValues((previous) => ({ ...previous, [name]: value })),
    errorMessage: errors[name],
  });

  const onSubmit = (submit: (values: V) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const firstInvalid = Object.keys(validate(values))[0];
    if (firstInvalid === undefined) {
      submit(values);
      return;
    }
    const input = event.currentTarget.elements.namedItem(firstInvalid);
    if (input instanceof HTMLElement) input.focus();
  };

  return { field, onSubmit };
}

/** Only the defined messages of a validator's answer (their key order is the order of the fields). */
export function fieldErrors<V>(errors: Record<keyof V & string, string | undefined>): FieldErrors<V> {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined)) as FieldErrors<V>;
}
