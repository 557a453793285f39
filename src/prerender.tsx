// Build-time only (scripts/prerender.ts, through Vite's SSR build): the pages rendered to HTML by the same routes and
// components the browser runs, so that they paint before any JavaScript; main.tsx hydrates them.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { type RouteObject, StaticRouterProvider, createStaticHandler, createStaticRouter, matchRoutes } from 'react-router';
import { ConsoleGuard } from './app/ConsoleGuard.tsx';
import { RequireAuth, RequireMfaStep } from './app/guards.tsx';
import { createActor } from 'xstate';
import { AppSystemProvider } from './machines/appSystem.tsx';
import { HydrationBoundary } from './app/hydration.tsx';
import { appMachine } from './machines/app.machine.ts';
import { type RouteHandle, lazyPagesOf, routes } from './app/routes.tsx';

/** An address pattern of the app, and whether it shows a page (a redirect does not). */
export interface RoutePattern {
  path: string;
  isPage: boolean;
}

function joinPath(parent: string, path: string | undefined): string {
  if (path === undefined) return parent;
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/** Every leaf of the route table as the full pattern it answers; a page is a leaf with a title. */
export function routePatterns(branch: RouteObject[] = routes, parent = ''): RoutePattern[] {
  return branch.flatMap((route) => {
    const path = joinPath(parent, route.path);
    if (route.children) return routePatterns(route.children, path);
    return [{ path: path || '/', isPage: Boolean((route.handle as Partial<RouteHandle> | undefined)?.title) }];
  });
}

/** A prerendered page: its HTML, and the modules of the lazy components the app loads for it. */
export interface RenderedPage {
  html: string;
  /** Those it shows, which hydration needs. */
  modules: unknown[];
  /** Those below a session guard, which render once the session is known: the app fetches them at start. */
  modulesAfterSession: unknown[];
}

/**
 * The HTML of the page at `url` as any visitor first sees it (a public page signed out, any other with its session
 * being resolved: the guards show that while hydrating), and the modules of the lazy components it needs.
 */
export async function renderPage(url: string): Promise<RenderedPage> {
  const matches = matchRoutes(routes, new URL(url).pathname) ?? [];
  const shown = lazyPagesOf(matches, [ConsoleGuard, RequireAuth, RequireMfaStep]);
  const afterSession = lazyPagesOf(matches).filter((page) => !shown.includes(page));
  const [modules, modulesAfterSession] = await Promise.all([
    Promise.all(shown.map((page) => page.preload())),
    Promise.all(afterSession.map((page) => page.preload())),
  ]);
  const { query, dataRoutes } = createStaticHandler(routes);
  const context = await query(new Request(url));
  if (context instanceof Response) throw new Error(`${url} answers ${context.status}, not a page`);
  const router = createStaticRouter(dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      {/* The app's actor system as it is before it starts: nothing runs at build time. */}
      <AppSystemProvider actor={createActor(appMachine)}>
        <HydrationBoundary prerendered>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </HydrationBoundary>
      </AppSystemProvider>
    </StrictMode>,
  );
  return { html: await new Response(prelude).text(), modules, modulesAfterSession };
}
