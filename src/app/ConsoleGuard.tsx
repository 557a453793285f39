import { Outlet } from 'react-router';
import { isStaffRole } from '../contract/account.rules.ts';
import { LinkButton } from '../widgets/Button.tsx';
import { useSession } from '../machines/appSystem.tsx';
import './ConsoleGuard.css';

export const STAFF_ONLY_MESSAGE = 'This area is for concierge staff only.';

/**
 * /console for staff only (DESIGN §1). It lives in the app's own chunk and imports nothing of the console, so an
 * employee who opens /console gets this page and never downloads the console's code (the console's route
 * component is lazily loaded, and only ever rendered through the Outlet below).
 */
export function ConsoleGuard() {
  const role = useSession((snapshot) => snapshot.context.user?.role);
  if (isStaffRole(role)) return <Outlet />;
  return (
    <main className="lc-staff-only" id="main">
      <h1>Concierge console</h1>
      <p>{STAFF_ONLY_MESSAGE}</p>
      <LinkButton href="/dashboard" variant="secondary">
        Go to Dashboard
      </LinkButton>
    </main>
  );
}
