import { useSession, useSessionSend } from '../app/session.ts';
import { SUPPORT_EMAIL } from '../services/account.ts';
import { Button } from '../widgets/Button.tsx';
import { PageHeading } from './PageHeading.tsx';
import './Account.css';

const CLOSE_ACCOUNT_MAILTO = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Close my account')}`;

/** Account Settings (SPEC §2): Basics (name, sign-out, support) and Data & Privacy (closing the account). */
export default function Account() {
  const send = useSessionSend();
  const fullName = useSession((snapshot) => snapshot.context.user?.full_name ?? '');
  const isSigningOut = useSession((snapshot) => snapshot.matches('signingOut'));

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
      <section className="lc-account-section" aria-labelledby="account-privacy">
        <h2 id="account-privacy">Data &amp; Privacy</h2>
        <p>To close your account, e-mail our support team. This action cannot be undone.</p>
        <a className="lc-account-section__danger" href={CLOSE_ACCOUNT_MAILTO}>Close Account</a>
      </section>
    </>
  );
}
