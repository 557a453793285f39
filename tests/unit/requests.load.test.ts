import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRequestLists } from '../../src/machines/requestsList.machine.ts';
import { groupRequests } from '../../src/services/threadRules.ts';

const wireRequest = (id: number, status: string | undefined, issuedAt: string) => ({
  id,
  external_id: `R-${id}`,
  name: `Request ${id}`,
  ...(status === undefined ? {} : { status }),
  issued_at: issuedAt,
  created_at: issuedAt,
  details: null,
  survey_category_name: null,
  survey_category_image_url: null,
  messages: [],
});

const LISTS: Record<string, unknown[]> = {
  '/api/v1/requests/open': [wireRequest(1, undefined, '2025-03-02T00:00:00Z')],
  '/api/v1/requests/in_progress': [wireRequest(2, undefined, '2025-03-01T00:00:00Z')],
  '/api/v1/requests/completed': [wireRequest(3, undefined, '2025-02-01T00:00:00Z'), wireRequest(4, 'closed', '2025-01-01T00:00:00Z')],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('loading the Requests screen (SPEC §2, §7)', () => {
  it('asks for the three lists, and a request without a status takes its list’s', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (input: Request) => {
      const path = new URL(input.url).pathname;
      asked.push(`${input.method} ${path}`);
      return Response.json({ success: true, requests: LISTS[path] });
    }));
    const lists = await loadRequestLists();
    expect(asked.sort()).toEqual(['GET /api/v1/requests/completed', 'GET /api/v1/requests/in_progress', 'GET /api/v1/requests/open']);
    const groups = groupRequests(lists);
    expect(groups.inQueue.map((request) => [request.id, request.status])).toEqual([[1, 'open']]);
    expect(groups.inProgress.map((request) => [request.id, request.status])).toEqual([[2, 'in_progress']]);
    expect(groups.completed.map((request) => [request.id, request.status])).toEqual([[4, 'closed'], [3, 'closed']]);
  });

  it('fails when any list fails, so that the screen offers to try again', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: Request) =>
      new URL(input.url).pathname.endsWith('/completed')
        ? Response.json({ error: 'An unexpected error occurred' }, { status: 500 })
        : Response.json({ success: true, requests: [] }),
    ));
    await expect(loadRequestLists()).rejects.toThrow();
  });
});
