import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { useFlow } from '../../machines/appSystem.tsx';
import { mfaPhoneChangeMachine } from '../../machines/mfaPhoneChange.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { lazyPage } from '../../services/lazyPage.ts';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';

// The phone's steps load when the employee presses Change phone, not with Account Settings (DESIGN §9).
const PhoneVerificationSteps = lazyPage(async () => ({ default: (await import('../MfaSteps.tsx')).PhoneVerificationSteps }));

export const PHONE_CHANGED_MESSAGE = 'Your new phone number is verified. Codes now go to it.';

/**
 * Two-step verification when it is on (issue 32 point 3): the phone, masked, and 'Change phone', which verifies a
 * new number with a texted code; the current phone keeps receiving codes until then.
 */
export function MfaPhoneSection({ lastDigits }: { lastDigits: string }) {
  const actor = useFlow(mfaPhoneChangeMachine, { id: 'mfaPhoneChange' });
  const verification = useSelector(actor, (snapshot) => snapshot.children.verifyNewPhone);
  const isChanged = useSelector(actor, (snapshot) => snapshot.context.changed);

  if (verification) {
    return (
      <div className="lc-account-section__form" role="group" aria-label="Change phone">
        <Suspense fallback={<Skeleton lines={2} />}>
          <PhoneVerificationSteps actor={verification}
            intro="Enter your new mobile phone number. We will text it a code; your current phone keeps receiving codes until you enter it." />
        </Suspense>
        <div className="lc-account-section__actions">
          <Button variant="tertiary" onPress={() => actor.send({ type: 'CANCEL' })}>Cancel</Button>
        </div>
      </div>
    );
  }
  return (
    <>
      {isChanged && <Message severity="success">{PHONE_CHANGED_MESSAGE}</Message>}
      <p>On: when you sign in on a new device, we text a code to your phone (•••) •••-{lastDigits}.</p>
      <Button variant="secondary" onPress={() => actor.send({ type: 'OPEN' })}>Change phone</Button>
    </>
  );
}
