import { createBrowserRouter, matchRoutes } from 'react-router';
import type { LazyPage } from '../services/lazyPage.ts';
import { setRouter } from '../services/navigation.ts';
import { ConsoleGuard } from './ConsoleGuard.tsx';
import { routes } from './routes.tsx';

/**
 * Issue 10: fetches the chunks of the page the address opens (its layouts included) at once, side by side, rather
 * than one after the other as they render, and before the session check has answered. Nothing behind the staff guard
 * is fetched before the guard has let the user in: employees never load the console's code.
 */
function preloadRoute(pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (route.Component === ConsoleGuard) return;
    (route.Component as Partial<LazyPage> | null | undefined)?.preload?.();
  }
}

/** The app's data router, registered with the navigation service so statecharts can navigate. */
export function createAppRouter() {
  preloadRoute(window.location.pathname);
  const router = createBrowserRouter(routes);
  setRouter(router);
  return router;
}
