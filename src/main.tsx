import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createActor } from 'xstate';
import { AppSystemProvider } from './machines/appSystem.tsx';
import { HydrationBoundary } from './app/hydration.tsx';
import { appInspector } from './app/inspector.ts';
import { createAppRouter } from './app/router.tsx';
import { appMachine } from './machines/app.machine.ts';
import { SYSTEM_IDS } from './machines/system.ts';
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
  // The app's actor system (DESIGN §5), with the Stately inspector attached to its root: every actor of the system is
  // inspected (in builds that contain the inspector; `inspect` is undefined otherwise).
  const app = createActor(appMachine, { systemId: SYSTEM_IDS.app, inspect: appInspector() });
  // Issue 10: loading the app's modules is one long task already; the system's start (the session restores itself),
  // the router and the first render come in tasks of their own, so that a phone's main thread is never blocked for
  // long (Lighthouse's Total Blocking Time).
  await nextTask();
  app.start();
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  const prerendered = container.hasChildNodes();
  const page = (
    <StrictMode>
      <AppSystemProvider actor={app}>
        <HydrationBoundary prerendered={prerendered} onHydrated={releaseHeldSubmit}>
          <RouterProvider router={router} />
        </HydrationBoundary>
      </AppSystemProvider>
    </StrictMode>
  );
  // A prerendered page (scripts/prerender.ts) is hydrated where it stands. Otherwise the first render runs as a
  // transition, which React splits into short tasks.
  if (prerendered) {
    noteTypingBeforeHydration(container);
    hydrateRoot(container, page);
  } else {
    startTransition(() => createRoot(container).render(page));
  }
}

void start();
