import { createBrowserRouter } from 'react-router';
import { setRouter } from '../services/navigation.ts';
import { lazyPagesOf, routes } from './routes.tsx';

/** The app's data router, registered with the navigation service so statecharts can navigate. */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // Issue 10: the chunks of the page the address opens, side by side rather than one after the other as they render,
  // and before the session check has answered. The router has matched the address already.
  for (const page of lazyPagesOf(router.state.matches)) void page.preload();
  setRouter(router);
  return router;
}
