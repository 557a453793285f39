import { useSession, useSessionSend } from '../machines/appSystem.tsx';
import { SUPPORT_EMAIL } from '../services/account.messages.ts';
import { Button } from '../widgets/Button.tsx';
import { PageHeading } from './PageHeading.tsx';
import './Account.css';

const CLOSE_ACCOUNT_MAILTO = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Close my account')}`;

/**
 * Account Settings (SPEC §2): Basics (name, sign-out, support), two-step verification (enrolment offered after sign-up
 * can be taken up here later) and Data & Privacy (closing the account).
 */
export default function Account() {
  const send = useSessionSend();
  const fullName = useSession((snapshot) => snapshot.context.user?.full_name ?? '');
  const isSigningOut = useSession((snapshot) => snapshot.matches('signingOut'));
  const isEnrolled = useSession((snapshot) => snapshot.context.user?.mfa_enrolled ?? false);

  return (
    <>
      <PageHeading title="Account Settings" />
      <section className="lc-account-section" aria-labelledby="account-basics">
        <h2 id="account-basics">Basics</h2>
        <dl className="lc-account-section__facts">
          <dt>Name</dt>
          <dd>{fullName}</dd>
        </dl>
        <p>
          Questions about your account? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
        </p>
        <Button variant="secondary" isLoading={isSigningOut} onPress={() => send({ type: 'SIGN_OUT' })}>
          Sign Out
        </Button>
      </section>
      <section className="lc-account-section" aria-labelledby="account-verification">
        <h2 id="account-verification">Two-step verification</h2>
        {isEnrolled ? (
          <p>On: when you sign in on a new device, we text a code to your phone.</p>
        ) : (
          <>
            <p>Add your mobile phone, and each sign-in on a new device will also need a code we text to it.</p>
            <Button variant="secondary" onPress={() => send({ type: 'START_ENROLLMENT' })}>
              Add a phone number
            </Button>
          </>
        )}
      </section>
      <section className="lc-account-section" aria-labelledby="account-privacy">
        <h2 id="account-privacy">Data &amp; Privacy</h2>
        <p>To close your account, e-mail our support team. This action cannot be undone.</p>
        <a className="lc-account-section__danger" href={CLOSE_ACCOUNT_MAILTO}>Close Account</a>
      </section>
    </>
  );
}
