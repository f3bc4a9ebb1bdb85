import { describe, expect, it } from 'vitest';
import { apiLimits } from './api-limits.js';
import { formatRateLimitHeaders, readRemaining } from './rate-limit-headers.js';
import { parseRetryAfter, retryDelayMs } from './retry-backoff.js';
import { retryAfterSeconds, tooManyRequestsBody } from './too-many-requests.js';

describe('rate-limit headers', () => {
  it('reads the remaining budget from X-Api-Call-Limit (used/limit)', () => {
    expect(readRemaining(new Headers({ 'X-Api-Call-Limit': '36/40' }))).toBe(4);
    expect(readRemaining(new Headers({ 'x-api-call-limit': ' 40 / 40 ' }))).toBe(0);
  });

  it('reads the remaining budget from X-RateLimit-Remaining, rounded down', () => {
    expect(readRemaining(new Headers({ 'X-RateLimit-Remaining': '7' }))).toBe(7);
    expect(readRemaining(new Headers({ 'X-RateLimit-Remaining': '7.9' }))).toBe(7);
  });

  it('takes the smaller remaining when both headers are present, and ignores garbage', () => {
    expect(readRemaining(new Headers({ 'X-Api-Call-Limit': '38/40', 'X-RateLimit-Remaining': '5' }))).toBe(2);
    expect(
      readRemaining(new Headers({ 'X-Api-Call-Limit': 'lots', 'X-RateLimit-Remaining': '-3' })),
    ).toBeUndefined();
    expect(readRemaining(new Headers())).toBeUndefined();
  });

  it('reads back exactly what the server formats, for every API', () => {
    for (const api of Object.values(apiLimits)) {
      const decision = { allowed: true, limit: 40, used: 13, remaining: 27, retryAfterMs: 0, resetMs: 1 };
      const headers = new Headers(formatRateLimitHeaders(api.headers, decision, api.policy));
      expect(readRemaining(headers)).toBe(27);
    }
  });
});

describe('429 answers and retries', () => {
  it('rounds Retry-After seconds up, never below 1', () => {
    expect([
      retryAfterSeconds(0),
      retryAfterSeconds(1),
      retryAfterSeconds(1_000),
      retryAfterSeconds(1_001),
    ]).toEqual([1, 1, 1, 2]);
  });

  it('builds the platform error envelope for a 429', () => {
    expect(JSON.stringify(tooManyRequestsBody(40, 3))).toBe(
      '{"error":{"code":"too_many_requests","message":"Too many requests: the limit is 40. Retry after 3 seconds.","more_info":{"limit":40,"retry_after":3}}}',
    );
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially up to the cap, never sooner than Retry-After, with up to 50% jitter', () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 10].map((attempt) => retryDelayMs(attempt, undefined, {}, none))).toEqual([
      500, 1_000, 2_000, 4_000, 30_000,
    ]);
    expect(retryDelayMs(0, 7_000, {}, none)).toBe(7_000);
    expect(retryDelayMs(2, undefined, { initialMs: 100, maxMs: 300 }, () => 0.999)).toBeCloseTo(300 + 149.85);
  });
});
