import { fromCallback, fromPromise, setup } from 'xstate';
import * as z from 'zod/mini';

/**
 * SPEC §4 "Version check": when the tab becomes visible the app fetches the deployed version file; a version other
 * than the one it was built as flags an update (tag 'updateNeeded'). SPEC §2: while flagged, the next navigation
 * loads the target address in full (RELOAD), unless an MFA step is pending (the caller decides that).
 * A failed check changes nothing; the next visibility change tries again.
 */

/** Written by the build next to index.html (vite.config.ts), e.g. {"version":"3f2a1c9-1735787045000"}. */
export const VERSION_FILE_PATH = '/version.json';
const versionFile = z.object({ version: z.string().check(z.minLength(1)) });

/** GET /version.json?t=<now>: the timestamp keeps every cache (browser, proxy, CDN) out of the way. */
export async function fetchDeployedVersion(now: number = Date.now()): Promise<string> {
  const url = new URL(VERSION_FILE_PATH, window.location.href);
  url.searchParams.set('t', String(now));
  const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The version file answered ${response.status}`);
  return versionFile.parse(await response.json()).version;
}

/** A full page load of `href`, even when only its #fragment differs from the current address. */
export function loadInFull(href: string): void {
  const target = new URL(href, window.location.href);
  const withoutFragment = (url: URL) => url.href.slice(0, url.href.length - url.hash.length);
  if (target.href === window.location.href) {
    window.location.reload();
    return;
  }
  const fragmentOnly = target.hash !== '' && withoutFragment(target) === withoutFragment(new URL(window.location.href));
  window.location.assign(target.href);
  // Moving to a fragment of the same document loads nothing; reloading then loads the new address.
  if (fragmentOnly) window.location.reload();
}

export interface VersionCheckInput {
  /** The version this bundle was built as (__APP_VERSION__). */
  builtVersion: string;
}

export type VersionCheckEvent =
  /** The document became visible (sent by the watchVisibility actor). */
  | { type: 'TAB_VISIBLE' }
  /** Load `href` in full: the next navigation, or the banner's 'Reload now'. */
  | { type: 'RELOAD'; href: string };

export const versionCheckMachine = setup({
  types: {
    context: {} as VersionCheckInput,
    input: {} as VersionCheckInput,
    events: {} as VersionCheckEvent,
  },
  actors: {
    watchVisibility: fromCallback<VersionCheckEvent>(({ sendBack }) => {
      const onVisibilityChange = () => {
        if (document.visibilityState === 'visible') sendBack({ type: 'TAB_VISIBLE' });
      };
      document.addEventListener('visibilitychange', onVisibilityChange);
      return () => document.removeEventListener('visibilitychange', onVisibilityChange);
    }),
    fetchDeployedVersion: fromPromise(() => fetchDeployedVersion()),
  },
  actions: {
    reloadPage: (_, { href }: { href: string }) => loadInFull(href),
  },
  guards: {
    isOtherVersion: ({ context }, { deployedVersion }: { deployedVersion: string }) =>
      deployedVersion !== context.builtVersion,
  },
}).createMachine({
  id: 'versionCheck',
  context: ({ input }) => ({ builtVersion: input.builtVersion }),
  invoke: { id: 'watchVisibility', src: 'watchVisibility' },
  initial: 'upToDate',
  states: {
    upToDate: {
      on: { TAB_VISIBLE: 'checking' },
    },
    checking: {
      invoke: {
        id: 'fetchDeployedVersion',
        src: 'fetchDeployedVersion',
        onDone: [
          {
            guard: { type: 'isOtherVersion', params: ({ event }) => ({ deployedVersion: event.output }) },
            target: 'updateNeeded',
          },
          { target: 'upToDate' },
        ],
        onError: { target: 'upToDate' },
      },
    },
    updateNeeded: {
      tags: ['updateNeeded'],
      initial: 'available',
      on: {
        RELOAD: { target: '.reloading', actions: { type: 'reloadPage', params: ({ event }) => ({ href: event.href }) } },
      },
      states: {
        available: {},
        /** The browser is loading the new version; if the load is cancelled, the next RELOAD tries again. */
        reloading: {},
      },
    },
  },
});
