import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { mfaEnrollmentMachine } from '../machines/mfaEnrollment.machine.ts';
import { Button } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { PhoneInput, phoneDigits } from '../widgets/PhoneInput.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { PHONE_PLACEHOLDER, fieldErrors, mfaCodeError, phoneError, useForm } from './forms.ts';

/*
 * The steps of verifying an MFA phone (SPEC §2), shown by MFA enrolment and by Account's phone change, which runs the
 * same statechart (mfaPhoneChange.machine.ts).
 */

/** '2125551212' -> '(212) 555-1212', as the user typed it. */
function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

type EnrollmentActor = ActorRefFrom<typeof mfaEnrollmentMachine>;

/** The number's step (introduced by `intro`) until a code has been texted, then the code's. */
export function PhoneVerificationSteps({ actor, intro }: { actor: EnrollmentActor; intro: string }) {
  const isCodeTexted = useSelector(actor, (snapshot) => !snapshot.matches('phone') && !snapshot.matches('sending'));
  return isCodeTexted ? <CodeStep actor={actor} /> : <PhoneStep actor={actor} intro={intro} />;
}

/** The number to text, introduced by `intro`. */
function PhoneStep({ actor, intro }: { actor: EnrollmentActor; intro: string }) {
  const isSending = useSelector(actor, (snapshot) => snapshot.matches('sending'));
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const { field, onSubmit } = useForm({ phone: '' }, (values) =>
    fieldErrors<typeof values>({ phone: phoneError(phoneDigits(values.phone)) }),
  );
  return (
    <>
      <p className="lc-account-screen__intro">{intro}</p>
      <form className="lc-account-form" noValidate
        onSubmit={onSubmit(({ phone }) => actor.send({ type: 'SUBMIT_PHONE', phoneNumber: phoneDigits(phone) }))}>
        <PhoneInput label="Mobile phone number" placeholder={PHONE_PLACEHOLDER} isRequired {...field('phone')} />
        {error && <Message severity="error">{error}</Message>}
        <div className="lc-account-form__actions">
          <Button type="submit" isLoading={isSending}>Send code</Button>
        </div>
      </form>
    </>
  );
}

/** The texted code: verify it, ask for a new one, or go back to the number. */
function CodeStep({ actor }: { actor: EnrollmentActor }) {
  const phoneNumber = useSelector(actor, (snapshot) => snapshot.context.phoneNumber);
  const isResending = useSelector(actor, (snapshot) => snapshot.matches('resending'));
  const isVerifying = useSelector(actor, (snapshot) => snapshot.matches('verifying'));
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const { field, onSubmit } = useForm({ code: '' }, (values) =>
    fieldErrors<typeof values>({ code: mfaCodeError(values.code) }),
  );
  return (
    <>
      <p className="lc-account-screen__intro">We sent a 6-digit code to {formatPhone(phoneNumber)}.</p>
      <form className="lc-account-form" noValidate onSubmit={onSubmit(({ code }) => actor.send({ type: 'VERIFY', otp: code.trim() }))}>
        <TextInput label="Verification code" inputMode="numeric" autoComplete="one-time-code" isRequired autoFocus
          {...field('code')} />
        {error && <Message severity="error">{error}</Message>}
        <div className="lc-account-form__actions">
          <Button type="submit" isLoading={isVerifying} isDisabled={isResending}>Verify</Button>
          <Button variant="tertiary" isLoading={isResending} isDisabled={isVerifying} onPress={() => actor.send({ type: 'RESEND' })}>
            Send a new code
          </Button>
          <Button variant="tertiary" isDisabled={isVerifying || isResending} onPress={() => actor.send({ type: 'CHANGE_NUMBER' })}>
            Use a different number
          </Button>
        </div>
      </form>
    </>
  );
}
