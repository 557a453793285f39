// Build-time only (scripts/prerender.ts, through Vite's SSR build): the public pages rendered to HTML by the same
// routes and components the browser runs, so that they paint before any JavaScript; main.tsx hydrates them.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { routes } from './app/routes.tsx';

/** The HTML of the page at `url` as a signed-out visitor first sees it. */
export async function renderPage(url: string): Promise<string> {
  const { query, dataRoutes } = createStaticHandler(routes);
  const context = await query(new Request(url));
  if (context instanceof Response) throw new Error(`${url} answers ${context.status}, not a page`);
  const router = createStaticRouter(dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  return new Response(prelude).text();
}
