import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './support.ts';

/** What the page posts to the inspector's window: here a stand-in for https://stately.ai/inspect, which it records. */
interface PostedActor {
  type: '@xstate.actor';
  name: string;
  sessionId: string;
  parentId?: string;
}

declare global {
  interface Window {
    inspectorMessages: unknown[];
  }
}

test('with ?inspect, one inspector sees the whole actor system, the screens\' flows among its children, secrets masked', async ({ page }) => {
  await page.addInitScript(() => {
    window.inspectorMessages = [];
    // The inspector's window: every message the app's inspector posts to it is kept.
    window.open = () => ({ postMessage: (message: unknown) => window.inspectorMessages.push(message) }) as unknown as Window;
  });
  await page.goto('/sign-in?inspect');
  // The inspector's window says it is ready; the app's inspector then sends what it has held back.
  await page.evaluate(() => window.postMessage({ type: '@statelyai.connected' }, '*'));
  await signIn(page, 'employee@demo.test');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Explore categories' }).click();
  await expect(page.getByRole('dialog', { name: 'Request categories' })).toBeVisible();

  const messages = await page.evaluate(() => window.inspectorMessages);
  const actors = messages.filter((message): message is PostedActor => (message as PostedActor).type === '@xstate.actor');
  const root = actors.find((actor) => actor.name === 'app' && actor.parentId === undefined);
  expect(root).toBeDefined();
  const childrenOfRoot = new Set(actors.filter((actor) => actor.parentId === root?.sessionId).map((actor) => actor.name));
  // The long-lived actors and the Dashboard's flow, all children of the one root (the version check joins them when
  // the tab first becomes visible again, which a test's tab is not told).
  for (const name of ['session', 'toasts', 'liveUpdates', 'requestCreation', 'dashboard']) expect(childrenOfRoot).toContain(name);
  // One system: every actor descends from the root.
  const bySession = new Map(actors.map((actor) => [actor.sessionId, actor]));
  for (const actor of actors) {
    let ancestor: PostedActor | undefined = actor;
    while (ancestor?.parentId !== undefined) ancestor = bySession.get(ancestor.parentId);
    expect(ancestor?.sessionId, `${actor.name} belongs to the app's system`).toBe(root?.sessionId);
  }
  // The password typed into the sign-in form reached the session's events, masked.
  const posted = JSON.stringify(messages);
  expect(posted).toContain('[masked]');
  expect(posted).not.toContain(DEMO_PASSWORD);
});
