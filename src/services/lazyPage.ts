import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** SPEC §8 "Lazy page load failure": what browsers say when a chunk of an older deployment is gone. */
const CHUNK_LOAD_FAILURES = [
  'Failed to fetch dynamically imported module',
  'Importing a module script failed',
  'error loading dynamically imported module',
];

/** Session storage: the address already reloaded once for a failed chunk, so a second failure is not a loop. */
export const CHUNK_RELOAD_MARKER = 'chunkReloadFor';

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return CHUNK_LOAD_FAILURES.some((failure) => message.includes(failure));
}

/**
 * A React.lazy route component that recovers from a new deployment: when its chunk cannot be loaded, the browser
 * loads the target address in full (getting the new index and chunks). If that same address failed right after such
 * a reload, the error is thrown to the error boundary instead of reloading forever. Other errors are rethrown.
 *
 * Usage: `{ path: '/requests', Component: lazyPage(() => import('../views/Requests.tsx')) }`.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  reload: () => void = () => window.location.reload(),
): LazyPage<P> {
  const component = lazy(async () => {
    try {
      const module = await load();
      sessionStorage.removeItem(CHUNK_RELOAD_MARKER);
      return module;
    } catch (error) {
      const target = window.location.href;
      if (!isChunkLoadError(error) || sessionStorage.getItem(CHUNK_RELOAD_MARKER) === target) throw error;
      sessionStorage.setItem(CHUNK_RELOAD_MARKER, target);
      // The router has already moved to the target address, so a reload loads it in full (hash included).
      reload();
      // The page is being replaced; rendering nothing until then avoids a flash of the error boundary.
      return new Promise<never>(() => {});
    }
  });
  // The browser keeps one module per address: the render's own load then finds it fetched, or on its way.
  return Object.assign(component, { preload: () => load().catch(() => undefined) });
}

/**
 * A lazy page whose chunk can be fetched before it renders (see lazyPagesOf). `preload` settles with the module, or
 * with nothing when it could not be loaded (the render then handles the failure).
 */
export type LazyPage<P extends object = object> = LazyExoticComponent<ComponentType<P>> & { preload(): Promise<unknown> };
