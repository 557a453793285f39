import { describe, expect, it, vi } from 'vitest';
import { type RealtimeNotice, payloadsOf, startRealtimeHub } from '../../server/domain/realtime/realtime.ts';
import { suiteContext, testEngine } from './harness.ts';

/** The hub sends what the app publishes in as few NOTIFYs as it can, and loses nothing on the way. */
const context = suiteContext();
const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

const created = (messageId: number): RealtimeNotice => ({ type: 'message.created', requestId: 7, ownerUserId: 3, messageId });

describe('payloads', () => {
  it('fit a NOTIFY (8000 bytes) each, and carry every notice in order', () => {
    const notices = Array.from({ length: 500 }, (_, index) => created(index));
    const payloads = payloadsOf(notices);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(payloads.flatMap((payload) => JSON.parse(payload) as RealtimeNotice[])).toEqual(notices);
    expect(payloadsOf([])).toEqual([]);
  });
});

describe(`the hub on ${testEngine}`, () => {
  it('delivers every notice of many publishes made at once, in order, and settle() comes after them', async () => {
    const hub = await startRealtimeHub(context.database, quietLog);
    const heard: RealtimeNotice[] = [];
    hub.subscribe({ onNotice: (notice) => heard.push(notice), onInterrupted: () => {} });
    try {
      const batches = Array.from({ length: 40 }, (_, batch) => Array.from({ length: 10 }, (_, index) => created(batch * 10 + index)));
      await Promise.all(batches.map((batch) => hub.publish(batch)));
      const expected = batches.flat();
      if (testEngine === 'postgres') {
        expect(await hub.settle()).toBe(true);
        expect(heard).toEqual(expected);
      } else {
        await vi.waitFor(() => expect(heard).toEqual(expected));
      }
    } finally {
      await hub.close();
    }
  });
});
