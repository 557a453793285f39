import { createBrowserRouter } from 'react-router';
import { setRouter } from '../services/navigation.ts';
import { routes } from './routes.tsx';

/** The app's data router, registered with the navigation service so statecharts can navigate. */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setRouter(router);
  return router;
}
