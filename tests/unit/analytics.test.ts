import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as AnalyticsModule from '../../src/services/analytics.ts';
import type { AnalyticsBatch } from '../../src/contract/analytics.ts';

interface SentRequest {
  request: Request;
  batch: AnalyticsBatch;
}
const sent: SentRequest[] = [];
const answers: Response[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : new Request(input, init);
  // Read now: the body stream is gone once the request has been sent.
  sent.push({ request, batch: (await request.clone().json()) as AnalyticsBatch });
  const answer = Response.json({ accepted: 1 }, { status: 202 });
  answers.push(answer);
  return answer;
});

/** A fresh module for each test: its queue and user are module state. */
async function loadAnalytics(): Promise<typeof AnalyticsModule> {
  vi.resetModules();
  return import('../../src/services/analytics.ts');
}

beforeEach(() => {
  sent.length = 0;
  answers.length = 0;
  vi.useFakeTimers();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('anonymisePath (SPEC §2 anonymised paths)', () => {
  it.each([
    ['/reset-password/Zm9vYmFy', '/reset-password/:resetToken'],
    ['/unlock/abc123', '/unlock/:unlockToken'],
    ['/confirm-email/abc123', '/confirm-email/:confirmationToken'],
    ['/abc123/unlock', '/:unlockToken/unlock'],
    ['/abc123/unlock/42', '/:unlockToken/unlock'],
    ['/reset-password/abc123/unlock/42', '/reset-password/:unlockToken/unlock'],
    ['/requests/8f14e45f-ceea-467f-a0e6-3b1f2f1a7a10', '/requests/:requestId'],
    ['/attachments/uploads%2F7%2Fscan.pdf', '/attachments/:fileKey'],
    ['/requests/category/3', '/requests/category/3'],
    ['/requests', '/requests'],
    ['/benefits-and-offers/all', '/benefits-and-offers/all'],
    ['/dashboard/', '/dashboard'],
    ['/', '/'],
  ])('%s is reported as %s', async (pathname, expected) => {
    const { anonymisePath } = await loadAnalytics();
    expect(anonymisePath(pathname)).toBe(expected);
  });
});

describe('analytics sink', () => {
  it('sends page views in one keepalive batch to POST /api/v1/analytics/events after the flush delay', async () => {
    const { trackPageView, ANALYTICS_FLUSH_DELAY_MS } = await loadAnalytics();
    trackPageView('/sign-in');
    trackPageView('/reset-password/secret-token');

    await vi.advanceTimersByTimeAsync(ANALYTICS_FLUSH_DELAY_MS - 1);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);

    expect(sent).toHaveLength(1);
    const [{ request, batch }] = sent;
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/v1/analytics/events');
    expect(request.keepalive).toBe(true);
    expect(request.headers.get('authorization')).toBeNull();
    expect(batch.analytics_id).toBe(import.meta.env.VITE_ANALYTICS_ID);
    expect(batch.user_properties).toBeUndefined();
    expect(batch.events.map((event) => [event.name, event.properties])).toEqual([
      ['page_view', { path: '/sign-in' }],
      ['page_view', { path: '/reset-password/:resetToken' }],
    ]);
    // Chromium holds a keepalive request against the page's 64 KB budget until its answer has been read.
    expect(answers.map((answer) => answer.bodyUsed)).toEqual([true]);
  });

  it('sends a full batch at once, without waiting', async () => {
    const { track, ANALYTICS_BATCH_SIZE } = await loadAnalytics();
    for (let index = 0; index < ANALYTICS_BATCH_SIZE; index += 1) {
      track('ui_interaction', { element_type: 'button', element_id: 'explore_categories' });
    }
    await vi.advanceTimersByTimeAsync(0);

    expect(sent).toHaveLength(1);
    expect(sent[0].batch.events).toHaveLength(ANALYTICS_BATCH_SIZE);
  });

  it('sends what is queued as soon as the page is hidden', async () => {
    const { track } = await loadAnalytics();
    track('cta_click', {
      cta_type: 'offering',
      text: 'Get a quote',
      url: 'https://partner.example.com/quote',
      offering_id: 7,
      provider_name: 'Acme Insurance',
      featured: false,
    });
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);

    expect(sent).toHaveLength(1);
    expect(sent[0].batch.events[0]).toMatchObject({ name: 'cta_click', properties: { offering_id: 7 } });
  });

  it("sends the previous user's events with their token and internal_user when the user changes", async () => {
    const { setAnalyticsUser, trackPageView } = await loadAnalytics();
    localStorage.setItem('token', 'session-token-of-ada');
    setAnalyticsUser({ external_id: 'ada', internal_user: true });
    trackPageView('/dashboard');

    // Sign-out: the analytics user is cleared, then the stored session right away.
    setAnalyticsUser(null);
    localStorage.clear();
    await vi.advanceTimersByTimeAsync(0);

    expect(sent).toHaveLength(1);
    expect(sent[0].request.headers.get('authorization')).toBe('session-token-of-ada');
    expect(sent[0].batch).toMatchObject({ user_properties: { internal_user: true } });

    trackPageView('/sign-in');
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(2);
    expect(sent[1].request.headers.get('authorization')).toBeNull();
    expect(sent[1].batch.user_properties).toBeUndefined();
  });

  it('sends nothing when VITE_REPORT_ANALYTICS is "false"', async () => {
    vi.stubEnv('VITE_REPORT_ANALYTICS', 'false');
    const { track, trackPageView, flushAnalytics } = await loadAnalytics();
    trackPageView('/dashboard');
    track('sign_up', { company_slug: 'acme' });
    await flushAnalytics();
    await vi.runAllTimersAsync();

    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('drops a batch that cannot be sent with a warning, without throwing', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { trackPageView, flushAnalytics } = await loadAnalytics();
    trackPageView('/requests');

    await expect(flushAnalytics()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('Analytics events could not be sent', expect.any(Error));
  });
});
