// The rate-limit header vocabulary of the mall APIs, both ways: servers format a decision into an
// API's headers from a table (header name -> what it shows), and clients read the remaining budget
// back from whichever of those headers a response carries. Not for `Retry-After` on 429s, which
// the server limiter adds, nor for deciding anything.
import type { Decision, LimitPolicy } from './policy.js';
import { refillPerSecond } from './policy.js';

/**
 * What one header shows: the limit, the remaining units, `used/limit`, the cost of the call, or
 * the refill rate in units per second.
 */
export type HeaderField = 'limit' | 'remaining' | 'used/limit' | 'cost' | 'refill-per-second';

/** An API's rate-limit headers: header name (as sent) -> the field it shows. */
export type HeaderTable = Readonly<Record<string, HeaderField>>;

/** Formats `decision` into the headers of `table`. */
export function formatRateLimitHeaders(
  table: HeaderTable,
  decision: Decision,
  policy: LimitPolicy,
  cost = 1,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, field] of Object.entries(table)) {
    headers[name] = formatField(field, decision, policy, cost);
  }
  return headers;
}

function formatField(field: HeaderField, decision: Decision, policy: LimitPolicy, cost: number): string {
  switch (field) {
    case 'limit':
      return String(decision.limit);
    case 'remaining':
      return String(decision.remaining);
    case 'used/limit':
      return `${decision.used}/${decision.limit}`;
    case 'cost':
      return String(cost);
    case 'refill-per-second':
      return String(refillPerSecond(policy));
  }
}

/** Minimal read access to response headers (a fetch `Headers` fits). */
export interface HeaderSource {
  get(name: string): string | null;
}

const CALL_LIMIT = /^\s*(\d+)\s*\/\s*(\d+)\s*$/;
const WHOLE_NUMBER = /^\s*(\d+(?:\.\d+)?)\s*$/;

/**
 * Reads the remaining budget a server reported: from `X-Api-Call-Limit: used/limit` (remaining =
 * limit - used) and from `X-RateLimit-Remaining`; when both are present the smaller wins.
 *
 * @returns whole units remaining, or `undefined` when the response carries neither header.
 */
export function readRemaining(headers: HeaderSource): number | undefined {
  const candidates: number[] = [];
  const callLimit = CALL_LIMIT.exec(headers.get('X-Api-Call-Limit') ?? '');
  if (callLimit !== null) candidates.push(Math.max(0, Number(callLimit[2]) - Number(callLimit[1])));
  const remaining = WHOLE_NUMBER.exec(headers.get('X-RateLimit-Remaining') ?? '');
  if (remaining !== null) candidates.push(Math.floor(Number(remaining[1])));
  return candidates.length === 0 ? undefined : Math.min(...candidates);
}
