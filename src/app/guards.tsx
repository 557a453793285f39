import { Navigate, Outlet, useLocation } from 'react-router';
import { rememberReturnTo } from '../services/storage.ts';
import { Spinner } from '../widgets/Spinner.tsx';
import { useSession } from './session.ts';

type SessionView = 'resolving' | 'signedOut' | 'mfaPending' | 'enrollmentPending' | 'signedIn';

/** The one question every guard asks of the session statechart. */
function useSessionView(): SessionView {
  return useSession((snapshot) => {
    if (snapshot.hasTag('resolving')) return 'resolving';
    if (snapshot.hasTag('mfaPending')) return 'mfaPending';
    if (snapshot.hasTag('enrollmentPending')) return 'enrollmentPending';
    if (snapshot.hasTag('signedIn')) return 'signedIn';
    return 'signedOut';
  });
}

function Resolving() {
  return (
    <div className="lc-page-loading">
      <Spinner />
    </div>
  );
}

/** `/`: Dashboard when signed in, else SignIn (no returnTo is kept for the root path). */
export function RootRedirect() {
  const view = useSessionView();
  if (view === 'resolving') return <Resolving />;
  return <Navigate to={view === 'signedIn' ? '/dashboard' : '/sign-in'} replace />;
}

/** SPEC §2 guards: a signed-out visitor goes to /sign-in and the full address is kept as returnTo. */
export function RequireAuth() {
  const view = useSessionView();
  const location = useLocation();
  switch (view) {
    case 'resolving':
      return <Resolving />;
    case 'signedIn':
      return <Outlet />;
    case 'enrollmentPending':
      return <Navigate to="/mfa-enrollment" replace />;
    case 'mfaPending':
    case 'signedOut':
      rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
      return <Navigate to="/sign-in" replace />;
  }
}

/** SignIn (unless an MFA step is pending) and SignUp send a signed-in user to the Dashboard. */
export function PublicOnly() {
  const view = useSessionView();
  if (view === 'resolving') return <Resolving />;
  if (view === 'signedIn') return <Navigate to="/dashboard" replace />;
  if (view === 'enrollmentPending') return <Navigate to="/mfa-enrollment" replace />;
  return <Outlet />;
}

/** MfaEnrollment: only while signed in with enrolment available or verification required; else SignIn. */
export function RequireMfaStep() {
  const view = useSessionView();
  if (view === 'resolving') return <Resolving />;
  return view === 'enrollmentPending' ? <Outlet /> : <Navigate to="/sign-in" replace />;
}
