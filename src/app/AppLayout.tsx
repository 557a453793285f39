import { useSelector } from '@xstate/react';
import { type ReactNode, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { NavLink, Outlet, useMatches } from 'react-router';
import type { Company, User } from '../contract/account.ts';
import { lazyPage } from '../services/lazyPage.ts';
import { isStaffRole } from '../contract/account.rules.ts';
import { useHydrating } from './hydration.tsx';
import { CompanyLogo } from '../widgets/CompanyLogo.tsx';
import { CountBadge } from '../widgets/CountBadge.tsx';
import { Logo } from '../widgets/Logo.tsx';
import { PlainButton } from '../widgets/Pressable.tsx';
import { useOpenedOnce } from '../widgets/useOpenedOnce.ts';
import type { RouteHandle } from './routes.tsx';
import { useAppActor, useRequestCreationActor, useSession, useUnreadTotal } from '../machines/appSystem.tsx';
import './AppLayout.css';

interface NavItem {
  to: string;
  label: string;
  mobileLabel: string;
  icon: ReactNode;
  /** The item counts the employee's unread replies (issue 32). */
  countsUnread?: boolean;
}

const UNREAD_LABEL = { one: 'unread reply', other: 'unread replies' };

const icon = (path: string) => (
  <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    <path d={path} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

const NAV_ITEMS: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', mobileLabel: 'Dashboard', icon: icon('M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z') },
  {
    to: '/requests',
    label: 'Requests',
    mobileLabel: 'Requests',
    icon: icon('M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01'),
    countsUnread: true,
  },
  {
    to: '/benefits-and-offers',
    label: 'Benefits & Offers',
    mobileLabel: 'Benefits',
    icon: icon('M20 12v9H4v-9M2 7h20v5H2zM12 21V7M12 7H7.5a2.5 2.5 0 1 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 1 0 0-5C13 2 12 7 12 7z'),
  },
];

/**
 * The request creation drawer (SPEC §2, §4): its own chunk (with the survey conversation and the file uploader),
 * loaded when it is first opened rather than with every signed-in page (issue 10), then kept mounted.
 */
const RequestCreationDrawer = lazyPage(() => import('../views/requestCreation/RequestCreationDrawer.tsx'));

const UserMenu = lazyPage(() => import('./UserMenu.tsx'));

/**
 * The user the frame shows: none while the session is being resolved, and none while a prerendered page hydrates
 * (the build rendered the frame without one, issue 10). RequireAuth, inside the frame, decides what the page shows.
 */
function useFrameUser(): User | null {
  // Deferred as the guards' view is (guards.tsx): the frame fills in with the page, in one transition.
  const user = useDeferredValue(useSession((snapshot) => (snapshot.hasTag('signedIn') ? snapshot.context.user : null)));
  return useHydrating() ? null : user;
}

/**
 * The employee's unread replies are kept while their frame is shown (issue 32): the frame tells the statechart, which
 * loads and follows them.
 */
function useUnreadRepliesOf(user: User | null) {
  const app = useAppActor();
  const isEmployee = user?.role === 'employee';
  useEffect(() => {
    if (!isEmployee) return;
    app.send({ type: 'EMPLOYEE_SHOWN' });
    return () => app.send({ type: 'EMPLOYEE_LEFT' });
  }, [isEmployee, app]);
  return useUnreadTotal();
}

/** A navigation item's own badge: the unread replies on Requests. */
function NavBadge({ item, unread }: { item: NavItem; unread: number }) {
  return item.countsUnread ? <CountBadge count={unread} label={UNREAD_LABEL} className="lc-nav-badge" /> : null;
}

/**
 * The signed-in frame (SPEC §2 Layout): sidebar on large screens; header, user menu and bottom bar on mobile. Until
 * the user is known it is the frame's skeleton (what prerendered signed-in pages paint before any JavaScript runs):
 * the same boxes, without the user's name, menu and sponsors.
 */
export default function AppLayout() {
  const user = useFrameUser();
  const unread = useUnreadRepliesOf(user);
  const matches = useMatches();
  const hideBottomBar = matches.some((match) => (match.handle as RouteHandle | undefined)?.hideBottomBar);
  const requestCreation = useRequestCreationActor();
  const drawerOpenedOnce = useOpenedOnce(useSelector(requestCreation, (snapshot) => snapshot?.matches('closed') === false));

  return (
    <div className={`lc-app${hideBottomBar ? ' lc-app--no-bottom-bar' : ''}`}>
      <a className="lc-skip-link" href="#main">
        Skip to content
      </a>
      <aside className="lc-sidebar" aria-label="Main">
        <Logo to="/dashboard" />
        <nav aria-label="Main navigation">
          <ul className="lc-sidebar__nav">
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className="lc-sidebar__link">
                  {item.icon}
                  <span>{item.label}</span>
                  <NavBadge item={item} unread={unread} />
                </NavLink>
              </li>
            ))}
            {isStaffRole(user?.role) && (
              <li>
                <NavLink to="/console" className="lc-sidebar__link">
                  {icon('M4 5h16v11H4zM8 20h8M12 16v4')}
                  <span>Concierge console</span>
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
        {user && (
          <NavLink to="/account" className="lc-sidebar__account">
            <span className="lc-avatar" aria-hidden="true">
              {user.initials}
            </span>
            <span>{user.full_name}</span>
          </NavLink>
        )}
      </aside>

      <header className="lc-header">
        <Logo to="/dashboard" />
        {user ? <UserMenuButton user={user} /> : <span className="lc-avatar" aria-hidden="true" />}
      </header>

      <div className="lc-app__body">
        <main id="main" className="lc-app__main" tabIndex={-1}>
          <Outlet />
        </main>
        {user && <CompanyFooter companies={user.companies} />}
      </div>

      {!hideBottomBar && <BottomBar unread={unread} />}
      {drawerOpenedOnce && requestCreation && (
        <Suspense fallback={null}>
          <RequestCreationDrawer actor={requestCreation} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The user menu's trigger. The menu (react-aria's Menu and Popover) is its own chunk, fetched when the pointer or
 * focus reaches the avatar and shown open at the first press, so that no signed-in page loads it at first paint.
 */
function UserMenuButton({ user }: { user: User }) {
  const [wanted, setWanted] = useState(false);
  const avatar = (
    <>
      <span aria-hidden="true">{user.initials}</span>
      <span className="lc-visually-hidden">Account menu for {user.full_name}</span>
    </>
  );
  const trigger = (
    <PlainButton className="lc-avatar lc-avatar--button" aria-haspopup="menu" onHoverStart={UserMenu.preload} onFocus={UserMenu.preload}
      onPress={() => setWanted(true)}>
      {avatar}
    </PlainButton>
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <UserMenu user={user} defaultOpen>
        {avatar}
      </UserMenu>
    </Suspense>
  );
}

function BottomBar({ unread }: { unread: number }) {
  const app = useAppActor();
  const [dashboard, requests, benefits] = NAV_ITEMS as [NavItem, NavItem, NavItem];
  const link = (item: NavItem) => (
    <NavLink to={item.to} className="lc-bottom-bar__link">
      {item.icon}
      <span>{item.mobileLabel}</span>
      <NavBadge item={item} unread={unread} />
    </NavLink>
  );
  return (
    <nav className="lc-bottom-bar" aria-label="Main navigation">
      {link(dashboard)}
      {link(requests)}
      <PlainButton
        className="lc-bottom-bar__create"
        aria-label="Create a request"
        onPress={() => app.send({ type: 'OPEN_CATEGORIES', mode: 'explore', trackedAs: 'create_custom_request_mobile' })}
      >
        {icon('M12 5v14M5 12h14')}
      </PlainButton>
      {link(benefits)}
    </nav>
  );
}

/** 'Brought to you by' with each sponsoring company's logo, or its name when it has none. */
function CompanyFooter({ companies }: { companies: Company[] }) {
  if (companies.length === 0) return null;
  return (
    <footer className="lc-company-footer">
      <span>Brought to you by</span>
      <ul>
        {companies.map((company) => (
          <li key={company.id}>
            <CompanyLogo company={company} height={28} />
          </li>
        ))}
      </ul>
    </footer>
  );
}
