import { useActorRef, useSelector } from '@xstate/react';
import { useParams } from 'react-router';
import { inspect } from '../app/inspector.ts';
import { unlockMachine } from '../machines/unlock.machine.ts';
import { SUPPORT_EMAIL } from '../services/account.ts';
import { LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { Spinner } from '../widgets/Spinner.tsx';
import './forms.css';

/** UnlockUser (SPEC §2, §8): the e-mailed unlock link is used at once; loading, then success or failure. */
export default function Unlock() {
  const { unlockToken = '' } = useParams();
  const actor = useActorRef(unlockMachine, { input: { unlockToken }, inspect });
  const outcome = useSelector(actor, (snapshot) => snapshot.value);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);

  return (
    <section className="lc-account-screen" aria-labelledby="unlock-heading" aria-busy={outcome === 'loading'}>
      <h1 id="unlock-heading">Unlock your account</h1>
      {outcome === 'loading' && (
        <>
          <Spinner />
          <p className="lc-account-screen__intro">Unlocking your account…</p>
        </>
      )}
      {outcome === 'success' && (
        <>
          <Message severity="success">Your account has been unlocked. You can sign in now.</Message>
          <LinkButton href="/sign-in">Sign in</LinkButton>
        </>
      )}
      {outcome === 'failure' && (
        <>
          <Message severity="error">{error}</Message>
          <p>
            We were unable to unlock your account. Please check the link you used to unlock your account and try again.
          </p>
          <p>
            Still stuck? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
          </p>
          <LinkButton href="/sign-in" variant="secondary">Back to sign in</LinkButton>
        </>
      )}
    </section>
  );
}
