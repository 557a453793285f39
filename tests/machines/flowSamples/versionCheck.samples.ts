// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: versionCheck.machine.ts.

import type { VersionCheckInput } from '../../../src/machines/versionCheck.machine.ts';

/**
 * Sample input and payloads for `npm run flows` and the model-based test: a build 'v1', and a version file that
 * answers the same version or a newer one.
 */
export const flowSamples = {
  input: { builtVersion: 'v1' } satisfies VersionCheckInput,
  events: [
    { type: 'xstate.done.actor.fetchDeployedVersion', output: 'v1' },
    { type: 'xstate.done.actor.fetchDeployedVersion', output: 'v2' },
    { type: 'RELOAD', href: 'http://localhost:3000/dashboard' },
  ],
};
