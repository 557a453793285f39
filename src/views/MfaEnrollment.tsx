import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useFlow, useSession, useSessionSend } from '../machines/appSystem.tsx';
import { mfaEnrollmentMachine } from '../machines/mfaEnrollment.machine.ts';
import { Button } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { PhoneInput, phoneDigits } from '../widgets/PhoneInput.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { PHONE_PLACEHOLDER, fieldErrors, mfaCodeError, phoneError, useForm } from './forms.ts';
import './forms.css';

/** '2125551212' -> '(212) 555-1212', as the user typed it. */
function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

type EnrollmentActor = ActorRefFrom<typeof mfaEnrollmentMachine>;

/** MfaEnrollment (SPEC §2): a phone number, then the texted code, then verified; optional enrolment may be skipped. */
export default function MfaEnrollment() {
  const actor = useFlow(mfaEnrollmentMachine, { id: 'mfaEnrollment' });
  const stage = useSelector(actor, (snapshot) => {
    if (snapshot.matches('verified')) return 'verified';
    return snapshot.matches('phone') || snapshot.matches('sending') ? 'phone' : 'code';
  });
  const isOptional = useSession((snapshot) => !snapshot.context.mfaEnrollmentVerification);

  return (
    <section className="lc-account-screen" aria-labelledby="mfa-enrollment-heading">
      <h1 id="mfa-enrollment-heading">Secure your account</h1>
      {stage === 'verified' && <Message severity="success">Your phone number is verified.</Message>}
      {stage === 'phone' && <PhoneStep actor={actor} />}
      {stage === 'code' && <CodeStep actor={actor} />}
      {stage !== 'verified' && <LeaveButtons isOptional={isOptional} />}
    </section>
  );
}

function PhoneStep({ actor }: { actor: EnrollmentActor }) {
  const isSending = useSelector(actor, (snapshot) => snapshot.matches('sending'));
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const { field, onSubmit } = useForm({ phone: '' }, (values) =>
    fieldErrors<typeof values>({ phone: phoneError(phoneDigits(values.phone)) }),
  );
  return (
    <>
      <p className="lc-account-screen__intro">
        Add a mobile phone number. Each time you sign in from a new device, we will text a verification code to it.
      </p>
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

/** Optional enrolment may be skipped; either way the user may leave and sign in again later. */
function LeaveButtons({ isOptional }: { isOptional: boolean }) {
  const sendToSession = useSessionSend();
  return (
    <div className="lc-account-form__actions">
      {isOptional && (
        <Button variant="secondary" onPress={() => sendToSession({ type: 'SKIP_ENROLLMENT' })}>
          Skip for now
        </Button>
      )}
      <Button variant="tertiary" onPress={() => sendToSession({ type: 'SIGN_OUT' })}>
        Sign out
      </Button>
    </div>
  );
}
