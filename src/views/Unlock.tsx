import { useParams } from 'react-router';
import { unlockMachine } from '../machines/unlock.machine.ts';
import { EmailedLinkScreen } from './EmailedLinkScreen.tsx';

/** UnlockUser (SPEC §2, §8): the e-mailed unlock link is used at once; loading, then success or failure. */
export default function Unlock() {
  const { unlockToken = '' } = useParams();
  return (
    <EmailedLinkScreen
      machine={unlockMachine}
      token={unlockToken}
      text={{
        heading: 'Unlock your account',
        doneHeading: 'Account unlocked',
        loading: 'Unlocking your account…',
        success: 'Your account has been unlocked. You can sign in now.',
        failure: 'We were unable to unlock your account. Please check the link you used to unlock your account and try again.',
      }}
      next={{ success: { href: '/sign-in', label: 'Sign in' }, failure: { href: '/sign-in', label: 'Back to sign in' } }}
    />
  );
}
