import { expect, vi } from 'vitest';
import { type App, buildApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/client.ts';
import type { RealtimeHub, RealtimeNotice, RealtimeSubscriber } from '../../server/domain/realtime/realtime.ts';
import type { TestContext } from './harness.ts';

/** A live-updates hub whose notices the test delivers by hand, and whose listener it loses and gets back. */
export function handHub() {
  const subscribers = new Set<RealtimeSubscriber>();
  const hub: RealtimeHub = {
    live: true,
    publish: async () => {},
    settle: async () => true,
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
    close: async () => {},
  };
  return {
    hub,
    notify: (notice: RealtimeNotice) => subscribers.forEach((subscriber) => subscriber.onNotice(notice)),
    /** The real hub tells its subscribers when it loses its listener. */
    setLive(live: boolean) {
      (hub as { live: boolean }).live = live;
      if (!live) subscribers.forEach((subscriber) => subscriber.onInterrupted());
    },
  };
}

/**
 * A second server process on the test's PostgreSQL database: `cached` reads through it (filling its caches), `change`
 * is made through the first, and `seen` (read through the second) must hold within half a second, as soon as the
 * database has told the second.
 */
export async function expectSeenByAnotherProcess(
  context: TestContext,
  { cached, change, seen }: { cached: (other: App) => Promise<void>; change: () => Promise<unknown>; seen: (other: App) => Promise<void> },
) {
  const otherDatabase = await openDatabase({ url: context.database.url });
  const other = await buildApp({ config: context.config, database: otherDatabase });
  await other.ready();
  try {
    await cached(other);
    await change();
    const started = performance.now();
    await vi.waitFor(() => seen(other), { timeout: 2_000, interval: 1 });
    expect(performance.now() - started).toBeLessThan(500);
  } finally {
    await other.close();
    await otherDatabase.close();
  }
}
