import { useSyncExternalStore } from 'react';
import type * as VersionModule from '../services/version.ts';

/**
 * SPEC §4 "Version check" without its code in the first page load (DESIGN §9 weight budget): the check runs when the
 * tab becomes visible, so the version module (statechart and actor) loads on the first visibility change to
 * 'visible', and that first change is handed to it; from then on the actor watches visibility itself.
 */

let versionModule: typeof VersionModule | null = null;
const subscribers = new Set<() => void>();

export function startVersionCheck(): void {
  const onVisibilityChange = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', onVisibilityChange);
    import('../services/version.ts').then(
      (loaded) => {
        versionModule = loaded;
        loaded.versionActor.send({ type: 'TAB_VISIBLE' });
        for (const notify of subscribers) notify();
      },
      // The module could not be loaded (e.g. offline): the next visibility change tries again.
      () => document.addEventListener('visibilitychange', onVisibilityChange),
    );
  };
  document.addEventListener('visibilitychange', onVisibilityChange);
}

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

/** The app-wide version check actor, or undefined until the tab has first become visible. */
export function useVersionActor(): VersionModule.VersionCheckActor | undefined {
  // A prerendered page has no check yet (nor has the browser's first render, which hydrates it).
  return useSyncExternalStore(subscribe, () => versionModule?.versionActor, () => undefined);
}

/** SPEC §2 reload on navigation (see services/version.ts); nothing is flagged before the first check. */
export function reloadIfUpdateNeeded(targetHref: string, mfaPending: boolean): boolean {
  return versionModule?.reloadIfUpdateNeeded(targetHref, mfaPending) ?? false;
}
