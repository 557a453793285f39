import { useEffect } from 'react';
import { useFlow } from '../machines/appSystem.tsx';
import { type SsoSignInActor, ssoSignInMachine } from '../machines/ssoSignIn.machine.ts';

/**
 * The sign-in page's single sign-on flow (issue 29), started once the visitor begins typing an address: a chunk of its
 * own, so that the page's first load stays within its budget (DESIGN §9). It hands the flow to the page, and tells it
 * each address typed; the page shows the offer the flow finds.
 */
export default function SignInSso({ email, onFlow }: { email: string; onFlow: (flow: SsoSignInActor) => void }) {
  const sso = useFlow(ssoSignInMachine, { id: 'ssoSignIn', input: { entry: 'signIn' } });
  useEffect(() => onFlow(sso), [onFlow, sso]);
  useEffect(() => sso.send({ type: 'EMAIL_CHANGED', email }), [sso, email]);
  return null;
}
