import { Outlet } from 'react-router';
import { LinkButton } from '../widgets/Button.tsx';
import { useSession } from '../machines/appSystem.tsx';
import { homePathOf } from '../machines/session.machine.ts';
import './ConsoleGuard.css';

export const EMPLOYER_ONLY_MESSAGE = 'This report is for employer admins only.';

/** /employer/report for employer admins only (issue 29 part 3); anyone else is told so and offered their home. */
export function EmployerGuard() {
  const user = useSession((snapshot) => snapshot.context.user);
  if (user?.role === 'employer_admin') return <Outlet />;
  return (
    <main className="lc-staff-only" id="main">
      <h1>Value report</h1>
      <p>{EMPLOYER_ONLY_MESSAGE}</p>
      <LinkButton href={homePathOf(user)} variant="secondary">
        Go back
      </LinkButton>
    </main>
  );
}
