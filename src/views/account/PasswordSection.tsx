import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { useFlow } from '../../machines/appSystem.tsx';
import { passwordChangeMachine } from '../../machines/passwordChange.machine.ts';
import { lazyPage } from '../../services/lazyPage.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';

const PasswordForm = lazyPage(() => import('./PasswordForm.tsx'));

/** Account Settings' password (issue 32 point 3): the current one, the new one twice; other devices are signed out. */
export function PasswordSection() {
  const actor = useFlow(passwordChangeMachine, { id: 'passwordChange' });
  const isOpen = useSelector(actor, (snapshot) => !snapshot.matches('closed'));
  const done = useSelector(actor, (snapshot) => snapshot.context.done);

  return (
    <section className="lc-account-section" aria-labelledby="account-password">
      <h2 id="account-password">Password</h2>
      {done && <Message severity="success">{done}</Message>}
      {isOpen ? (
        <Suspense fallback={<Skeleton lines={3} />}>
          <PasswordForm actor={actor} />
        </Suspense>
      ) : (
        <>
          <p>Changing your password signs you out on every other device.</p>
          <Button variant="secondary" onPress={() => actor.send({ type: 'OPEN' })}>Change password</Button>
        </>
      )}
    </section>
  );
}
