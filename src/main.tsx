import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { HydrationBoundary } from './app/hydration.tsx';
import { getInspect } from './app/inspector.ts';
import { createAppRouter } from './app/router.tsx';
import { startSession } from './app/session.ts';
import { startVersionCheck } from './app/versionCheck.ts';
import { type AppConfig, readConfig } from './services/config.ts';
import { startMonitoring } from './services/monitoring.ts';
import { applyNativeWrapperStatusBar } from './services/nativeWrapper.ts';
import { holdSubmitsUntilHydrated, releaseHeldSubmit } from './widgets/submitsBeforeHydration.ts';
import { noteTypingBeforeHydration } from './widgets/typingBeforeHydration.ts';
import './widgets/tokens.css';

const container = document.getElementById('root')!;

/** A task of its own: between the steps of the start the browser may paint, and answer input. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  // The page may be used from now on, between the tasks of the start and before it is hydrated.
  holdSubmitsUntilHydrated();
  let config: AppConfig;
  try {
    config = readConfig();
  } catch (error) {
    // SPEC §5: the app does not start without its configuration.
    createRoot(container).render(<p role="alert">{error instanceof Error ? error.message : String(error)}</p>);
    return;
  }
  startMonitoring(config);
  applyNativeWrapperStatusBar();
  startVersionCheck();
  // DESIGN §5: the Stately inspector, in non-production builds only (the branch is removed from production).
  if (import.meta.env.MODE !== 'production') void getInspect();
  // Issue 10: loading the app's modules is one long task already; the session's start, the router and the first
  // render come in tasks of their own, so that a phone's main thread is never blocked for long (Lighthouse's Total
  // Blocking Time).
  await nextTask();
  startSession();
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  const prerendered = container.hasChildNodes();
  const app = (
    <StrictMode>
      <HydrationBoundary prerendered={prerendered} onHydrated={releaseHeldSubmit}>
        <RouterProvider router={router} />
      </HydrationBoundary>
    </StrictMode>
  );
  // A prerendered page (scripts/prerender.ts) is hydrated where it stands. Otherwise the first render runs as a
  // transition, which React splits into short tasks.
  if (prerendered) {
    noteTypingBeforeHydration(container);
    hydrateRoot(container, app);
  } else {
    startTransition(() => createRoot(container).render(app));
  }
}

void start();
