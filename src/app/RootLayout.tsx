import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useHref, useLocation, useMatches, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '../services/config.ts';
import { trackPageView } from '../services/analytics.ts';
import { RouterProvider as AriaRouterProvider } from '../widgets/RouterProvider.tsx';
import { Spinner } from '../widgets/Spinner.tsx';
import { ToastRegion } from '../widgets/ToastRegion.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import type { RouteHandle } from './routes.tsx';
import { UpdateBanner } from './UpdateBanner.tsx';
import { navigationReload, useAppActor, useToastsActor, useUnreadTotal, useVersionActor } from '../machines/appSystem.tsx';

function useRouteTitle(): string {
  const matches = useMatches();
  const handle = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.title)?.handle as
    | RouteHandle
    | undefined;
  return handle?.title ?? '';
}

/** After each navigation (SPEC §2): the title, a page view, and a full reload if a new version was deployed. */
function NavigationEffects() {
  const location = useLocation();
  const title = useRouteTitle();
  // Issue 32: the employee's unread replies lead the tab's title, "(2) Life Concierge | Requests".
  const unread = useUnreadTotal();
  const previousPath = useRef<string | null>(null);
  const app = useAppActor();

  useEffect(() => {
    const pageTitle = title ? `${PRODUCT_NAME} | ${title}` : PRODUCT_NAME;
    document.title = unread > 0 ? `(${unread}) ${pageTitle}` : pageTitle;
  }, [title, unread]);

  useEffect(() => {
    const href = `${location.pathname}${location.search}${location.hash}`;
    const isNavigation = previousPath.current !== null && previousPath.current !== href;
    previousPath.current = href;
    if (isNavigation && navigationReload(app, href)) return;
    trackPageView(location.pathname);
  }, [app, location.pathname, location.search, location.hash]);

  return null;
}

/** The app's toasts (SPEC §2), from its system's toasts actor. */
export function AppToasts() {
  const toasts = useToastsActor();
  return (
    <ToastRegion toasts={useSelector(toasts, (snapshot) => snapshot.context.toasts)}
      onDismiss={(id) => toasts.send({ type: 'DISMISS', id })} />
  );
}

export function RootLayout() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const versionActor = useVersionActor();
  return (
    // react-aria links and buttons navigate through the data router instead of reloading the page.
    <AriaRouterProvider navigate={(to) => void navigate(to)} useHref={useHref}>
      <NavigationEffects />
      <ScrollRestoration />
      <ErrorBoundary component="RootLayout" feature="app" resetKey={pathname}>
        <Suspense
          fallback={
            <div className="lc-page-loading">
              <Spinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </ErrorBoundary>
      <UpdateBanner actor={versionActor} />
      <AppToasts />
    </AriaRouterProvider>
  );
}
