import { useDeferredValue, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { rememberReturnTo } from '../services/storage.ts';
import { Spinner } from '../widgets/Spinner.tsx';
import { useHydrating } from './hydration.tsx';
import { useSession } from '../machines/appSystem.tsx';
import { EMPLOYER_REPORT_PATH, homePathOf } from '../machines/session.machine.ts';

type SessionView = 'resolving' | 'signedOut' | 'mfaPending' | 'enrollmentPending' | 'signedIn';

/**
 * The one question every guard asks of the session statechart. Its answer is deferred: the screen a change of session
 * shows (the whole page, once the session resolves) renders as a transition, which React splits into short tasks,
 * rather than at once in one long task (issue 10).
 */
function useSessionView(): SessionView {
  return useDeferredValue(useCurrentSessionView());
}

function useCurrentSessionView(): SessionView {
  return useSession((snapshot) => {
    if (snapshot.hasTag('resolving')) return 'resolving';
    if (snapshot.hasTag('mfaPending')) return 'mfaPending';
    if (snapshot.hasTag('enrollmentPending')) return 'enrollmentPending';
    if (snapshot.hasTag('signedIn')) return 'signedIn';
    return 'signedOut';
  });
}

/**
 * What a guard shows: the session's view, except while a prerendered page is hydrated, when it is the view the
 * build rendered (issue 10): a public page as a signed-out visitor sees it, any other as a session being resolved.
 */
function useShownView(view: SessionView, prerendered: SessionView): SessionView {
  return useHydrating() ? prerendered : view;
}

/**
 * A guard's redirect. React Router's Navigate navigates once, as it mounts; but a guard stays mounted when a
 * navigation to another of its routes overtakes the redirect's own (a link of the frame followed while SignIn's code
 * loads), and the redirect must then be made again. Keyed by the address, it is.
 */
function Redirect({ to }: { to: string }) {
  return <Navigate key={useLocation().key} to={to} replace />;
}

function Resolving() {
  return (
    <div className="lc-page-loading">
      <Spinner />
    </div>
  );
}

/** The signed-in user's home: the Dashboard, or the console for staff. */
function useHomePath(): string {
  return homePathOf(useSession((snapshot) => snapshot.context.user));
}

/** `/`: the user's home when signed in, else SignIn (no returnTo is kept for the root path). */
export function RootRedirect() {
  const view = useShownView(useSessionView(), 'resolving');
  const home = useHomePath();
  if (view === 'resolving') return <Resolving />;
  return <Redirect to={view === 'signedIn' ? home : '/sign-in'} />;
}

/**
 * SPEC §2 guards: a signed-out visitor goes to /sign-in and the full address is kept as returnTo. A guard that saw the
 * user signed in keeps nothing: a sign-out must not plant a target, and a lost session is remembered by the session
 * statechart itself.
 */
export function RequireAuth() {
  const actualView = useSessionView();
  const location = useLocation();
  const sawSignedIn = useSawSessionIn(actualView, ['signedIn']);
  const isEmployerAdmin = useSession((snapshot) => snapshot.context.user?.role === 'employer_admin');
  switch (useShownView(actualView, 'resolving')) {
    case 'resolving':
      return <Resolving />;
    case 'signedIn':
      // An employer admin has one screen (issue 29 part 3): every other signed-in address leads to it.
      if (isEmployerAdmin && !location.pathname.startsWith(EMPLOYER_REPORT_PATH)) return <Redirect to={EMPLOYER_REPORT_PATH} />;
      return <Outlet />;
    case 'enrollmentPending':
      return <Redirect to="/mfa-enrollment" />;
    case 'mfaPending':
    case 'signedOut':
      if (!sawSignedIn) rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
      return <Redirect to="/sign-in" />;
  }
}

/**
 * True once the session has been in one of `states` while this guard was mounted. A guard that saw the user
 * sign in (or finish enrolment) on its own screen leaves the next step to the session statechart, which
 * navigates to returnTo, AboutUs or the Dashboard itself; redirecting here too would race it.
 */
function useSawSessionIn(view: SessionView, states: SessionView[]): boolean {
  const saw = useRef(false);
  if (states.includes(view)) saw.current = true;
  return saw.current;
}

/** SignIn (unless an MFA step is pending) and SignUp send a signed-in visitor to their home (the Dashboard). */
export function PublicOnly() {
  const actualView = useSessionView();
  const signedInHere = useSawSessionIn(actualView, ['signedOut', 'mfaPending']);
  const view = useShownView(actualView, 'signedOut');
  const home = useHomePath();
  if (view === 'resolving') return <Resolving />;
  if (view === 'signedIn') return signedInHere ? <Resolving /> : <Redirect to={home} />;
  if (view === 'enrollmentPending') return <Redirect to="/mfa-enrollment" />;
  return <Outlet />;
}

/** MfaEnrollment: only while signed in with enrolment available or verification required; else SignIn. */
export function RequireMfaStep() {
  const actualView = useSessionView();
  const enrolledHere = useSawSessionIn(actualView, ['enrollmentPending']);
  const view = useShownView(actualView, 'resolving');
  if (view === 'resolving') return <Resolving />;
  if (view === 'enrollmentPending') return <Outlet />;
  return enrolledHere && view === 'signedIn' ? <Resolving /> : <Redirect to="/sign-in" />;
}
