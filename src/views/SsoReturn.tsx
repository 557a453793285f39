import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useFlow } from '../machines/appSystem.tsx';
import { ssoSignInMachine } from '../machines/ssoSignIn.machine.ts';
import { LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { Spinner } from '../widgets/Spinner.tsx';
import './forms.css';

/**
 * /sign-in/sso (issue 29): where the server's SSO callback sends the browser back, with the one-time code or the
 * reason in the fragment. The code becomes a session and the app opens; a failure says why, with the way back.
 */
export default function SsoReturn() {
  // Read once, as the screen opens: the flow then takes the fragment out of the address.
  const [fragment] = useState(() => window.location.hash);
  const sso = useFlow(ssoSignInMachine, { id: 'ssoSignIn', input: { entry: 'return', fragment } });
  const failed = useSelector(sso, (snapshot) => snapshot.matches({ returned: 'failed' }));
  const error = useSelector(sso, (snapshot) => snapshot.context.error);

  return (
    <section className="lc-account-screen" aria-labelledby="sso-heading" aria-busy={!failed}>
      <h1 id="sso-heading">{failed ? 'We could not sign you in' : 'Signing you in'}</h1>
      {failed ? (
        <>
          <Message severity="error">{error}</Message>
          <LinkButton href="/sign-in" variant="secondary">Back to sign in</LinkButton>
        </>
      ) : (
        <>
          <Spinner />
          <p className="lc-account-screen__intro">Your company’s identity provider has signed you in. Opening Life Concierge…</p>
        </>
      )}
    </section>
  );
}
