import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as VersionCheckStart from '../../src/app/versionCheck.ts';

/** Requests for the deployed version file, and the versions it answers in turn (Vitest builds are 'unbuilt'). */
const versionFileRequests: string[] = [];
let deployedVersions: string[];
let started: typeof VersionCheckStart;
let stopActor: (() => void) | null = null;

beforeEach(async () => {
  versionFileRequests.length = 0;
  deployedVersions = ['unbuilt', 'deployed-later'];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      versionFileRequests.push(new URL(input instanceof Request ? input.url : input.toString()).pathname);
      return Response.json({ version: deployedVersions.shift() });
    }),
  );
  vi.resetModules();
  started = await import('../../src/app/versionCheck.ts');
});

afterEach(() => {
  stopActor?.();
  stopActor = null;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setVisibility(state: DocumentVisibilityState) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

describe('the version check start (SPEC §4, loaded when the tab first becomes visible)', () => {
  it('loads nothing and checks nothing until the tab becomes visible', async () => {
    started.startVersionCheck();
    const { result } = renderHook(() => started.useVersionActor());

    setVisibility('hidden');
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(result.current).toBeUndefined();
    expect(versionFileRequests).toEqual([]);
    expect(started.reloadIfUpdateNeeded('http://localhost:3000/requests', false)).toBe(false);
  });

  it('checks on the first visible change, then leaves the following ones to the version actor', async () => {
    started.startVersionCheck();
    const { result } = renderHook(() => started.useVersionActor());

    setVisibility('visible');
    await waitFor(() => expect(result.current).toBeDefined());
    const actor = result.current!;
    stopActor = () => actor.stop();
    await waitFor(() => expect(actor.getSnapshot().matches('upToDate')).toBe(true));
    expect(versionFileRequests).toEqual(['/version.json']);

    setVisibility('hidden');
    setVisibility('visible');
    await waitFor(() => expect(actor.getSnapshot().hasTag('updateNeeded')).toBe(true));
    // Later changes are the actor's own: one check each.
    expect(versionFileRequests).toEqual(['/version.json', '/version.json']);
    // An update is flagged, but a pending MFA step keeps the navigation in the app.
    expect(started.reloadIfUpdateNeeded('http://localhost:3000/requests', true)).toBe(false);
  });
});
