import { useSession, useSessionSend } from '../machines/appSystem.tsx';
import { SUPPORT_EMAIL } from '../services/account.messages.ts';
import { Button } from '../widgets/Button.tsx';
import { PageHeading } from './PageHeading.tsx';
import { PasswordSection } from './account/PasswordSection.tsx';
import { ProfileSection } from './account/ProfileSection.tsx';
import { MfaPhoneSection } from './account/MfaPhoneSection.tsx';
import { NotificationSettings } from './account/NotificationSettings.tsx';
import './Account.css';

const CLOSE_ACCOUNT_MAILTO = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Close my account')}`;

/**
 * Account Settings (SPEC §2): the profile to edit and the password (issue 32 point 3), Basics (sign-out, support),
 * two-step verification (enrolment offered after sign-up can be taken up here later; once on, the phone can be
 * changed) and Data & Privacy (closing the account).
 */
export default function Account() {
  const send = useSessionSend();
  const user = useSession((snapshot) => snapshot.context.user);
  const isSigningOut = useSession((snapshot) => snapshot.matches('signingOut'));
  const mfaPhoneLastDigits = useSession((snapshot) => snapshot.context.user?.mfa_phone_last_digits ?? null);

  return (
    <>
      <PageHeading title="Account Settings" />
      {user && <ProfileSection user={user} email={user.email} />}
      <PasswordSection />
      <section className="lc-account-section" aria-labelledby="account-basics">
        <h2 id="account-basics">Basics</h2>
        <p>
          Questions about your account? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
        </p>
        <Button variant="secondary" isLoading={isSigningOut} onPress={() => send({ type: 'SIGN_OUT' })}>
          Sign Out
        </Button>
      </section>
      <section className="lc-account-section" aria-labelledby="account-verification">
        <h2 id="account-verification">Two-step verification</h2>
        {mfaPhoneLastDigits ? (
          <MfaPhoneSection lastDigits={mfaPhoneLastDigits} />
        ) : (
          <>
            <p>Add your mobile phone, and each sign-in on a new device will also need a code we text to it.</p>
            <Button variant="secondary" onPress={() => send({ type: 'START_ENROLLMENT' })}>
              Add a phone number
            </Button>
          </>
        )}
      </section>
      <NotificationSettings />
      <section className="lc-account-section" aria-labelledby="account-privacy">
        <h2 id="account-privacy">Data &amp; Privacy</h2>
        <p>To close your account, e-mail our support team. This action cannot be undone.</p>
        <a className="lc-account-section__danger" href={CLOSE_ACCOUNT_MAILTO}>Close Account</a>
      </section>
    </>
  );
}
