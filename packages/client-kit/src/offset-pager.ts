// Pages through a limit/offset list endpoint as one async stream of items, and stops loudly at the
// API's offset cap instead of silently truncating. It knows nothing of HTTP: the caller supplies
// the function that fetches one page.

/** Fetches one page; resolves to the page's items (fewer than `limit` means the list ended). */
export type PageFetcher<T> = (page: { offset: number; limit: number }) => Promise<readonly T[]>;

/** How to page. */
export interface OffsetPagingOptions {
  /** Items per request (the API's `limit`). */
  pageSize: number;
  /** Largest `offset` the API accepts (5000 for the collection API, 8000 for admin lists). */
  maxOffset: number;
  /** First offset; default 0. */
  startOffset?: number;
  /**
   * What to do when a full page arrives at the cap, so more items may exist than the API lets
   * us reach: `'throw'` (default) raises {@link OffsetCapReachedError} after the last reachable
   * item; `'stop'` ends quietly.
   */
  onCapReached?: 'throw' | 'stop';
}

/** Raised when paging reached the API's offset cap while more items may remain. */
export class OffsetCapReachedError extends Error {
  readonly code = 'offset_cap_reached';
  constructor(
    readonly maxOffset: number,
    readonly itemsRead: number,
  ) {
    super(
      `Stopped after ${itemsRead} items: the API does not page past offset ${maxOffset}. ` +
        'Narrow the query (for example by a date range) to reach the remaining items.',
    );
    this.name = 'OffsetCapReachedError';
  }
}

/** Yields every item of a limit/offset list, page by page, up to the API's offset cap. */
export async function* paginateOffset<T>(
  fetchPage: PageFetcher<T>,
  options: OffsetPagingOptions,
): AsyncGenerator<T> {
  const { pageSize, maxOffset, startOffset = 0, onCapReached = 'throw' } = options;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError('pageSize must be a positive integer');
  let offset = startOffset;
  let itemsRead = 0;
  while (offset <= maxOffset) {
    const items = await fetchPage({ offset, limit: pageSize });
    for (const item of items) yield item;
    itemsRead += items.length;
    if (items.length < pageSize) return;
    offset += pageSize;
  }
  if (onCapReached === 'throw') throw new OffsetCapReachedError(maxOffset, itemsRead);
}
