import { useParams } from 'react-router';
import { useSession } from '../machines/appSystem.tsx';
import { emailConfirmationMachine } from '../machines/emailConfirmation.machine.ts';
import { EmailedLinkScreen } from './EmailedLinkScreen.tsx';

const BENEFITS_PATH = '/benefits-and-offers';

/**
 * The e-mailed confirmation link (issue 9 point 9): it works signed in or out. Signed in, the session fetches the
 * user again once the address is confirmed, so the company and its benefits show at once.
 */
export default function ConfirmEmail() {
  const { confirmationToken = '' } = useParams();
  const signedIn = useSession((snapshot) => snapshot.hasTag('signedIn'));
  const onward = signedIn ? { href: BENEFITS_PATH, label: 'Go to Benefits & Offers' } : { href: '/sign-in', label: 'Sign in' };

  return (
    <EmailedLinkScreen
      machine={emailConfirmationMachine}
      token={confirmationToken}
      text={{
        heading: 'Confirm your e-mail address',
        doneHeading: 'E-mail address confirmed',
        loading: 'Confirming your e-mail address…',
        success: signedIn
          ? "Your e-mail address is confirmed. Your employer's benefits are ready for you."
          : "Your e-mail address is confirmed. Sign in to see your employer's benefits.",
        failure: signedIn
          ? 'We were unable to confirm your e-mail address. You can ask for a new link on Benefits & Offers.'
          : 'We were unable to confirm your e-mail address. Sign in to ask for a new link on Benefits & Offers.',
      }}
      next={{ success: onward, failure: onward }}
    />
  );
}
