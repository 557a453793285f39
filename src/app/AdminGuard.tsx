import { Outlet } from 'react-router';
import { LinkButton } from '../widgets/Button.tsx';
import { useSession } from '../machines/appSystem.tsx';
import './ConsoleGuard.css';

export const ADMIN_ONLY_MESSAGE = 'This area is for administrators only.';

/**
 * /console/admin for admins only (issue 13), inside the staff guard. Like that guard it lives in the app's own chunk
 * and imports nothing of what it guards, so a concierge who opens the address gets this page and never downloads the
 * admin area's code.
 */
export function AdminGuard() {
  const role = useSession((snapshot) => snapshot.context.user?.role);
  if (role === 'admin') return <Outlet />;
  return (
    <main className="lc-staff-only" id="main">
      <h1>Administration</h1>
      <p>{ADMIN_ONLY_MESSAGE}</p>
      <LinkButton href="/console" variant="secondary">
        Go to the concierge console
      </LinkButton>
    </main>
  );
}
