// The rate-limit state a server last reported, read from one response's headers through the API's
// header table (`api-limits.ts`): units used, units remaining and the capacity, so an app can see
// how close it runs to the limit. Client side only; the scheduler's own model lives in the store.
import type { HeaderSource, HeaderTable } from './rate-limit-headers.js';

/** What the rate-limit headers of the last response said. */
export interface LimitReport {
  /** Units in use (calls in the window, or the bucket level). */
  readonly used: number;
  /** Units that could still be spent right away. */
  readonly remaining: number;
  /** The limit or bucket capacity. */
  readonly capacity: number;
  /** When the response arrived (ms since the epoch, the scheduler's clock). */
  readonly reportedAt: number;
}

const count = (text: string | undefined): number | undefined => {
  const value = Number(text);
  return text !== undefined && text.trim() !== '' && Number.isFinite(value) ? Math.floor(value) : undefined;
};

/**
 * Reads the headers of `table` from `headers`; the capacity falls back to `capacity` (the
 * policy's) when no header names it.
 *
 * @returns the report, or `undefined` when the response carries neither a used nor a remaining count.
 */
export function readLimitReport(
  headers: HeaderSource,
  table: HeaderTable,
  capacity: number,
  reportedAt: number,
): LimitReport | undefined {
  let used: number | undefined;
  let remaining: number | undefined;
  let limit: number | undefined;
  for (const [name, field] of Object.entries(table)) {
    const value = headers.get(name);
    if (value === null) continue;
    if (field === 'used/limit') {
      const [usedPart, limitPart] = value.split('/');
      used = count(usedPart);
      limit = count(limitPart) ?? limit;
    } else if (field === 'remaining') remaining = count(value);
    else if (field === 'limit') limit = count(value) ?? limit;
  }
  const total = limit ?? capacity;
  if (used === undefined && remaining === undefined) return undefined;
  return {
    used: used ?? Math.max(0, total - (remaining ?? total)),
    remaining: remaining ?? Math.max(0, total - (used ?? 0)),
    capacity: total,
    reportedAt,
  };
}
