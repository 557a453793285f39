import { holdSubmitsUntilHydrated } from '../widgets/submitsBeforeHydration.ts';
import { nextTask } from './tasks.ts';

/*
 * Issue 10: main.tsx imports this module after React and the router, before the app's own modules. The bundle keeps
 * modules in import order, so this top-level await ends the task that evaluates the entry there, and the rest is
 * evaluated in a task of its own: the one long task of module evaluation (~220 ms at a phone's CPU speed) becomes two.
 * A prerendered page can be used meanwhile: from here on, a form sent before the page is hydrated is held.
 */
holdSubmitsUntilHydrated();
await nextTask();
