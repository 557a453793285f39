import { type ActorRefFrom, createActor } from 'xstate';
import { inspect } from '../app/inspector.ts';
import { versionCheckMachine } from '../machines/versionCheck.machine.ts';

export type VersionCheckActor = ActorRefFrom<typeof versionCheckMachine>;

/**
 * The version this bundle was built as. Vite defines __APP_VERSION__ in every build and dev server; under Vitest
 * (no define) there is no build, and 'unbuilt' differs from any deployed version.
 */
export const BUILT_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'unbuilt';

/**
 * The app-wide version check, started on first import (app/versionCheck.ts imports it when the tab first becomes
 * visible); it checks each time the tab becomes visible.
 */
export const versionActor: VersionCheckActor = createActor(versionCheckMachine, {
  input: { builtVersion: BUILT_VERSION },
  inspect,
}).start();

/** SPEC §4: a newer version has been deployed since this page loaded. */
export function isUpdateNeeded(actor: VersionCheckActor = versionActor): boolean {
  return actor.getSnapshot().hasTag('updateNeeded');
}

/**
 * SPEC §2: on navigation, when an update is flagged and no MFA step is pending, the browser loads `targetHref` in
 * full (with the new bundle). Returns whether it did; when true, the caller should stop handling the navigation.
 */
export function reloadIfUpdateNeeded(
  targetHref: string,
  mfaPending: boolean,
  actor: VersionCheckActor = versionActor,
): boolean {
  if (mfaPending || !isUpdateNeeded(actor)) return false;
  actor.send({ type: 'RELOAD', href: targetHref });
  return true;
}
