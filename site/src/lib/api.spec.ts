import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { api } from './api';
import { newRecord, renderContext, type RenderRecord } from './render-context';

const books = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, title: `Book ${i + 1}`, reviews: [] }));
const essays = [{ id: 7, title: 'An essay' }];
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  process.env.SITE_API_URL = 'http://api.test';
  fetchMock = vi.fn(async (url: string) => {
    const body = url.endsWith('/api/books') ? books : url.endsWith('/api/essays') ? essays : [];
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

let publishes = 0;
/** Runs `work` as one render of the given publish and gives what it recorded. */
async function render(publishId: string | null, work: () => Promise<unknown>): Promise<RenderRecord> {
  const record = newRecord(publishId);
  await renderContext.run(record, work);
  return record;
}
const newPublish = () => `publish-${++publishes}`;
const fetched = () => fetchMock.mock.calls.map(([url]) => url as string);

describe('what a render reads', () => {
  it('records the collection for a whole-collection read (lists, home, sitemap, feeds)', async () => {
    const record = await render(newPublish(), async () => {
      await api.books();
      await api.essays();
    });
    expect([...record.deps].sort()).toEqual(['books', 'essays']);
  });

  it('records only the item for a one-item read, and gives the item', async () => {
    let title: string | undefined;
    const record = await render(newPublish(), async () => {
      title = (await api.book('3'))?.title;
    });
    expect(title).toBe('Book 3');
    expect([...record.deps]).toEqual(['books/3']);
  });

  it('records an item that does not exist (its creation must re-render the page), and gives undefined', async () => {
    let found: unknown = 'not read';
    const record = await render(newPublish(), async () => {
      found = await api.essay(8);
    });
    expect(found).toBeUndefined();
    expect([...record.deps]).toEqual(['essays/8']);
  });

  it('reads nothing for an id that no item can have', async () => {
    const record = await render(newPublish(), async () => {
      for (const id of ['abc', '0', '-1', '1.5', undefined]) expect(await api.book(id)).toBeUndefined();
    });
    expect([...record.deps]).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps the records of concurrent renders apart', async () => {
    const publish = newPublish();
    const [a, b, c] = await Promise.all([
      render(publish, () => api.book(1)),
      render(publish, () => api.books()),
      render(publish, async () => {
        await api.book(2);
        await api.essays();
      }),
    ]);
    expect([...a.deps]).toEqual(['books/1']);
    expect([...b.deps]).toEqual(['books']);
    expect([...c.deps].sort()).toEqual(['books/2', 'essays']);
  });
});

describe('reads per publish', () => {
  it('fetches each collection once for a whole publish, however many item pages read it', async () => {
    const publish = newPublish();
    const renders = await Promise.all(books.map((b) => render(publish, () => api.book(b.id))));
    await render(publish, () => api.books());
    expect(fetched()).toEqual(['http://api.test/api/books']);
    expect(renders.at(-1)!.deps).toEqual(new Set(['books/20000']));
  });

  it('reuses the answers for the same publish id and reads the API again for a new one', async () => {
    const first = newPublish();
    await render(first, () => api.books());
    await render(first, () => api.book(5));
    expect(fetched()).toHaveLength(1);
    await render(newPublish(), () => api.book(5));
    expect(fetched()).toHaveLength(2);
  });

  it('reads afresh for each render that has no publish id (the dev server)', async () => {
    await render(null, () => api.books());
    await render(null, () => api.books());
    expect(fetched()).toHaveLength(2);
  });

  it('fails every render of a publish whose read failed, with the reason; a new publish tries again', async () => {
    fetchMock.mockResolvedValueOnce(new Response('boom', { status: 503 }));
    const publish = newPublish();
    await expect(render(publish, () => api.books())).rejects.toThrow('Site build: GET /api/books answered 503: boom');
    await expect(render(publish, () => api.book(1))).rejects.toThrow('answered 503');
    await expect(render(newPublish(), () => api.book(1))).resolves.toBeTruthy();
  });

  it('says the API is unreachable when it is (a connection failing twice)', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed')).mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(render(newPublish(), () => api.plays())).rejects.toThrow(
      'Site build: the API at http://api.test is unreachable (fetch failed).',
    );
  });

  it('sends a GET once more when its connection fails before any answer (a kept-alive connection closed as it was reused)', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(render(newPublish(), () => api.plays())).resolves.toBeTruthy();
  });
});
