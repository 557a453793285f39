import { type ReactNode, createContext, startTransition, useContext, useEffect, useState } from 'react';

const HydratingContext = createContext(false);

/**
 * Issue 10: around the app. `prerendered` when the page is rendered at build time (scripts/prerender.ts) and when the
 * browser hydrates that HTML: until hydration is done, components show what the build rendered. The switch to what
 * only the browser knows is then a transition, which React renders in short tasks rather than one long one.
 */
export function HydrationBoundary({
  prerendered,
  onHydrated,
  children,
}: {
  prerendered: boolean;
  /** Called once the page shows what only the browser knows (at once when nothing was prerendered). */
  onHydrated?: () => void;
  children: ReactNode;
}) {
  const [hydrating, setHydrating] = useState(prerendered);
  useEffect(() => {
    if (hydrating) startTransition(() => setHydrating(false));
    else onHydrated?.();
  }, [hydrating, onHydrated]);
  return <HydratingContext value={hydrating}>{children}</HydratingContext>;
}

/**
 * True while the page is rendered at build time or hydrated; what a component shows then must be what the build
 * rendered, so anything only the browser knows (the session, a random pick) is read once this is false.
 */
export function useHydrating(): boolean {
  return useContext(HydratingContext);
}
