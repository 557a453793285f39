import { createMemoryRouter, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RequireAuth } from '../../src/app/guards.tsx';
import { lazyPagesOf, routes } from '../../src/app/routes.tsx';

/** Issue 10: the chunks fetched at start (from the data router's matches) and announced by a prerendered page. */

const dataRouterMatches = (path: string) => createMemoryRouter(routes, { initialEntries: [path] }).state.matches;
const tableMatches = (path: string) => matchRoutes(routes, path) ?? [];

describe('lazyPagesOf', () => {
  it("finds a page's lazy layout and screen alike in the route table and in a data router's matches", () => {
    const fromTable = lazyPagesOf(tableMatches('/dashboard'));
    expect(fromTable).toHaveLength(2);
    expect(lazyPagesOf(dataRouterMatches('/dashboard'))).toEqual(fromTable);
  });

  it('stops at the staff guard: nothing of the console is fetched before it lets the user in', () => {
    expect(lazyPagesOf(dataRouterMatches('/console'))).toEqual([]);
    expect(lazyPagesOf(tableMatches('/console/requests/4'))).toEqual([]);
  });

  it('stops where it is told: what a prerendered signed-in page shows is the frame alone', () => {
    const [frame, screen] = lazyPagesOf(tableMatches('/benefits-and-offers'));
    expect(screen).toBeDefined();
    expect(lazyPagesOf(tableMatches('/benefits-and-offers'), [RequireAuth])).toEqual([frame]);
  });
});
