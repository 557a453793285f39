import { type Page, expect, test } from '@playwright/test';
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
    inspectorOpened: boolean;
    /** Sent by the inspector's window when its page has loaded, as `createBrowserReceiver` does for its opener. */
    connectInspector: () => void;
  }
}

/**
 * The inspector's window, standing in for the real one: it records every message the app's inspector posts to it,
 * and it says "connected" only once the app has opened it (the real window cannot speak before it exists): at once
 * when `answersAtOnce`, else when the test calls `connectInspector()`, as a slow-loading inspector page would.
 */
async function standInInspectorWindow(page: Page, answersAtOnce: boolean) {
  await page.addInitScript((atOnce) => {
    window.inspectorMessages = [];
    window.inspectorOpened = false;
    window.connectInspector = () => window.postMessage({ type: '@statelyai.connected' }, '*');
    window.open = () => {
      window.inspectorOpened = true;
      if (atOnce) setTimeout(window.connectInspector);
      return { postMessage: (message: unknown) => window.inspectorMessages.push(message) } as unknown as Window;
    };
  }, answersAtOnce);
}

for (const { when, answersAtOnce } of [
  { when: 'as soon as the app opens it', answersAtOnce: true },
  { when: 'only after the user has signed in (a slow inspector page)', answersAtOnce: false },
]) {
  test(`with ?inspect, one inspector sees the whole actor system, the screens' flows among its children, secrets masked: inspector connected ${when}`, async ({ page }) => {
    await standInInspectorWindow(page, answersAtOnce);
    await page.goto('/sign-in?inspect');
    await signIn(page, 'employee@demo.test');
    await expect(page).toHaveURL(/\/dashboard$/);
    if (!answersAtOnce) {
      // The app opens the window as its inspector loads; the window's "connected" can only follow that.
      await page.waitForFunction(() => window.inspectorOpened);
      await page.evaluate(() => window.connectInspector());
    }
    await page.getByRole('button', { name: 'Explore categories' }).click();
    await expect(page.getByRole('dialog', { name: 'Request categories' })).toBeVisible();

    // The inspector posts each event when the page is next idle: what it has posted is read until the drawer's
    // actor is among it.
    let messages: unknown[] = [];
    let actors: PostedActor[] = [];
    let root: PostedActor | undefined;
    const childrenOfRoot = async () => {
      messages = await page.evaluate(() => window.inspectorMessages);
      actors = messages.filter((message): message is PostedActor => (message as PostedActor).type === '@xstate.actor');
      root = actors.find((actor) => actor.name === 'app' && actor.parentId === undefined);
      return actors.filter((actor) => root !== undefined && actor.parentId === root.sessionId).map((actor) => actor.name);
    };
    // The long-lived actors and the Dashboard's flow, all children of the one root (the version check joins them
    // when the tab first becomes visible again, which a test's tab is not told).
    await expect
      .poll(childrenOfRoot, { message: 'the children of the root the inspector was sent' })
      .toEqual(expect.arrayContaining(['session', 'toasts', 'liveUpdates', 'requestCreation', 'dashboard']));
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
}
