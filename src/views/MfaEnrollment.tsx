import { useSelector } from '@xstate/react';
import { useFlow, useSession, useSessionSend } from '../machines/appSystem.tsx';
import { mfaEnrollmentMachine } from '../machines/mfaEnrollment.machine.ts';
import { Button } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { PhoneVerificationSteps } from './MfaSteps.tsx';
import './forms.css';

/** MfaEnrollment (SPEC §2): a phone number, then the texted code, then verified; optional enrolment may be skipped. */
export default function MfaEnrollment() {
  const actor = useFlow(mfaEnrollmentMachine, { id: 'mfaEnrollment' });
  const isVerified = useSelector(actor, (snapshot) => snapshot.matches('verified'));
  const isOptional = useSession((snapshot) => !snapshot.context.mfaEnrollmentVerification);

  return (
    <section className="lc-account-screen" aria-labelledby="mfa-enrollment-heading">
      <h1 id="mfa-enrollment-heading">Secure your account</h1>
      {isVerified ? (
        <Message severity="success">Your phone number is verified.</Message>
      ) : (
        <>
          <PhoneVerificationSteps actor={actor}
            intro="Add a mobile phone number. Each time you sign in from a new device, we will text a verification code to it." />
          <LeaveButtons isOptional={isOptional} />
        </>
      )}
    </section>
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
