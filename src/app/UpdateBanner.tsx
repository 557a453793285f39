import { useSelector } from '@xstate/react';
import type { VersionCheckActor } from '../machines/app.machine.ts';
import { Button } from '../widgets/Button.tsx';
import './UpdateBanner.css';

/**
 * Tells the user a new version has been deployed (SPEC §4 "Version check") and that it loads with their next page,
 * or now if they choose. The live region is always in the page so that screen readers announce the change, also
 * before the check has started (no actor yet: the app loads it when the tab first becomes visible).
 */
export function UpdateBanner({ actor }: { actor: VersionCheckActor | undefined }) {
  const update = useSelector(actor, (snapshot) => {
    if (!snapshot) return 'none';
    if (snapshot.matches({ updateNeeded: 'reloading' })) return 'reloading';
    return snapshot.hasTag('updateNeeded') ? 'available' : 'none';
  });
  return (
    <div role="status" className={update === 'none' ? undefined : 'lc-update-banner'}>
      {update === 'available' && (
        <>
          <p className="lc-update-banner__text">
            A new version of Life Concierge is available. It loads when you open another page.
          </p>
          <Button variant="secondary" onPress={() => actor?.send({ type: 'RELOAD', href: window.location.href })}>
            Reload now
          </Button>
        </>
      )}
      {update === 'reloading' && <p className="lc-update-banner__text">Loading the new version…</p>}
    </div>
  );
}
