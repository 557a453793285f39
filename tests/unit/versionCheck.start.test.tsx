import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigationReload, useVersionActor } from '../../src/machines/appSystem.tsx';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { inApp, signedInSession, startTestApp } from '../machines/appSystem.support.tsx';
import { employeeUser } from '../machines/users.fixtures.ts';

/** Requests for the deployed version file, and the versions it answers in turn (Vitest builds are 'unbuilt'). */
const versionFileRequests: string[] = [];
let deployedVersions: string[];
let app: AppActor;

beforeEach(() => {
  versionFileRequests.length = 0;
  deployedVersions = ['unbuilt', 'deployed-later'];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      versionFileRequests.push(new URL(input instanceof Request ? input.url : input.toString()).pathname);
      return Response.json({ version: deployedVersions.shift() });
    }),
  );
  const user = employeeUser({ external_id: 'u-1', full_name: 'Ada Park', first_name: 'Ada', initials: 'AP', email: 'ada@acme.test' });
  app = startTestApp({ session: signedInSession(user) });
});

afterEach(() => {
  app.stop();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setVisibility(state: DocumentVisibilityState) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

const renderVersionActor = () => renderHook(() => useVersionActor(), { wrapper: ({ children }: { children: ReactNode }) => inApp(app, children) });

describe('the version check in the app system (SPEC §4, loaded when the tab first becomes visible)', () => {
  it('loads nothing and checks nothing until the tab becomes visible', async () => {
    const { result } = renderVersionActor();

    setVisibility('hidden');
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(result.current).toBeUndefined();
    expect(app.getSnapshot().matches({ versionCheck: 'waitingForVisibleTab' })).toBe(true);
    expect(versionFileRequests).toEqual([]);
    expect(navigationReload(app, 'http://localhost:3000/requests')).toBe(false);
  });

  it('checks on the first visible change, then leaves the following ones to the version actor', async () => {
    const { result } = renderVersionActor();

    setVisibility('visible');
    await waitFor(() => expect(result.current).toBeDefined());
    const actor = result.current!;
    await waitFor(() => expect(actor.getSnapshot().matches('upToDate')).toBe(true));
    expect(versionFileRequests).toEqual(['/version.json']);

    setVisibility('hidden');
    setVisibility('visible');
    await waitFor(() => expect(actor.getSnapshot().hasTag('updateNeeded')).toBe(true));
    // Later changes are the actor's own: one check each.
    expect(versionFileRequests).toEqual(['/version.json', '/version.json']);
  });
});
