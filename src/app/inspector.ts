import type { StatelyInspectionEvent } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';

/**
 * DESIGN §5 "Inspection": with `?inspect` in the address (or VITE_INSPECT=1), in a non-production build, every
 * actor is shown in the Stately inspector (https://stately.ai/inspect opens in a new window; allow the pop-up).
 * Secrets never reach it. A production build contains no inspector code: the only import of '@statelyai/inspect'
 * sits behind `import.meta.env.MODE !== 'production'`, which Vite replaces with a constant and removes.
 */

/** Keys whose values are masked, at any depth of events, context, input and output. */
const SECRET_KEY = /password|otp|code|token/i;
export const MASKED = '[masked]';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function toMaskedJson(value: unknown, ancestors: Set<object>): Json | undefined {
  if (typeof value === 'function' || typeof value === 'symbol' || value === undefined) return undefined;
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value as Json;
  // Snapshots, actors and dates say themselves what they look like as JSON.
  const self: unknown = 'toJSON' in value && typeof value.toJSON === 'function' ? value.toJSON() : value;
  if (self === null || typeof self !== 'object') return toMaskedJson(self, ancestors);
  if (ancestors.has(self)) return '[circular]';
  ancestors.add(self);
  try {
    if (Array.isArray(self)) return self.map((item) => toMaskedJson(item, ancestors) ?? null);
    const copy: { [key: string]: Json } = {};
    for (const [key, nested] of Object.entries(self)) {
      const masked = SECRET_KEY.test(key) && nested !== null && nested !== undefined ? MASKED : toMaskedJson(nested, ancestors);
      if (masked !== undefined) copy[key] = masked;
    }
    return copy;
  } finally {
    ancestors.delete(self);
  }
}

/**
 * A JSON copy of `value` with every secret value masked. JSON is also what the inspector window can receive by
 * postMessage (the inspector's own serializer is replaced by this one); cycles are shown as '[circular]'.
 */
export function maskSecrets<T>(value: T): T {
  return toMaskedJson(value, new Set()) as T;
}

/** A machine's definition arrives as a JSON string, and its literal initial context may hold secrets too. */
function maskDefinition(definition: string | undefined): string | undefined {
  if (definition === undefined) return undefined;
  try {
    return JSON.stringify(maskSecrets(JSON.parse(definition)));
  } catch {
    return undefined;
  }
}

/** Every inspection event, masked; also the form in which it is posted to the inspector window. */
export function maskInspectionEvent(event: StatelyInspectionEvent): StatelyInspectionEvent {
  const masked = maskSecrets(event);
  return masked.type === '@xstate.actor' ? { ...masked, definition: maskDefinition(masked.definition) } : masked;
}

/**
 * Events held back until the inspector's window says it has loaded ("connected"), then sent to it; the first ones
 * (the root and the long-lived actors) are the most telling, and the library's default (200) could lose them to a
 * slow-loading inspector page.
 */
const MAX_DEFERRED_EVENTS = 1000;

/** The options every inspector is created with: each inspection event is masked before it is sent. */
export const INSPECTOR_OPTIONS = { serialize: maskInspectionEvent, maxDeferredEvents: MAX_DEFERRED_EVENTS };

export function inspectionRequested(
  // No window when machines are loaded outside a browser (npm run flows).
  search: string = typeof window === 'undefined' ? '' : window.location.search,
  flag: unknown = import.meta.env.VITE_INSPECT,
): boolean {
  return new URLSearchParams(search).has('inspect') || flag === '1';
}

let loading: Promise<Observer<InspectionEvent> | undefined> | null = null;

/**
 * Loads the inspector and opens its window, once; resolves to its observer, or undefined when inspection is off
 * (always in production).
 */
export function getInspect(): Promise<Observer<InspectionEvent> | undefined> {
  if (import.meta.env.MODE !== 'production') {
    if (inspectionRequested()) {
      loading ??= import('@statelyai/inspect').then(
        ({ createBrowserInspector }) => createBrowserInspector(INSPECTOR_OPTIONS).inspect,
      );
      return loading;
    }
  }
  return Promise.resolve(undefined);
}

function createDeferredObserver(): Observer<InspectionEvent> {
  const early: InspectionEvent[] = [];
  let target: Observer<InspectionEvent> | undefined;
  void getInspect().then((observer) => {
    target = observer;
    for (const event of early.splice(0)) target?.next?.(event);
  });
  return {
    next(event) {
      if (target) target.next?.(event);
      else if (early.length < MAX_DEFERRED_EVENTS) early.push(event);
    },
  };
}

/**
 * The `inspect` option of the app's root actor (main.tsx), which the whole actor system shares: it opens the
 * inspector's window. Undefined when inspection is off, so actors pay nothing for it.
 */
export function appInspector(): Observer<InspectionEvent> | undefined {
  return import.meta.env.MODE !== 'production' && inspectionRequested() ? createDeferredObserver() : undefined;
}
