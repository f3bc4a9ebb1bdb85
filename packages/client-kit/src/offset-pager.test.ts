import { describe, expect, it } from 'vitest';
import { OffsetCapReachedError, paginateOffset } from './offset-pager.js';

const source = (total: number) => {
  const requests: { offset: number; limit: number }[] = [];
  const fetchPage = async (page: { offset: number; limit: number }) => {
    requests.push(page);
    return Array.from(
      { length: Math.max(0, Math.min(page.limit, total - page.offset)) },
      (_, i) => page.offset + i,
    );
  };
  return { requests, fetchPage };
};

const collect = async <T>(iterable: AsyncIterable<T>) => {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
};

describe('paginateOffset', () => {
  it('yields every item in order and stops at the first short page', async () => {
    const { requests, fetchPage } = source(250);
    const items = await collect(paginateOffset(fetchPage, { pageSize: 100, maxOffset: 5000 }));
    expect(items).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(requests).toEqual([
      { offset: 0, limit: 100 },
      { offset: 100, limit: 100 },
      { offset: 200, limit: 100 },
    ]);
  });

  it('reads up to the page that starts at the cap, then says the cap stopped it', async () => {
    const { requests, fetchPage } = source(10_000);
    const items: number[] = [];
    const error = await (async () => {
      try {
        for await (const item of paginateOffset(fetchPage, { pageSize: 100, maxOffset: 5000 }))
          items.push(item);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(OffsetCapReachedError);
    expect((error as OffsetCapReachedError).message).toContain('offset 5000');
    expect(items).toHaveLength(5100);
    expect(requests.at(-1)).toEqual({ offset: 5000, limit: 100 });
  });

  it('ends quietly at the cap when asked to', async () => {
    const { fetchPage } = source(10_000);
    const items = await collect(
      paginateOffset(fetchPage, { pageSize: 1000, maxOffset: 2000, onCapReached: 'stop' }),
    );
    expect(items).toHaveLength(3000);
  });

  it('does not throw when the list ends exactly at a page boundary below the cap', async () => {
    const { fetchPage } = source(300);
    expect(await collect(paginateOffset(fetchPage, { pageSize: 100, maxOffset: 5000 }))).toHaveLength(300);
  });

  it('rejects a page size that is not a positive integer', async () => {
    const { fetchPage } = source(10);
    await expect(collect(paginateOffset(fetchPage, { pageSize: 0, maxOffset: 10 }))).rejects.toThrow(
      RangeError,
    );
  });
});
