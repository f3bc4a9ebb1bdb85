// The landing page's rate-limit line is written from each spec's x-rate-limit: the numbers and the
// algorithm the limiter enforces, and a changed copy of a spec changes the line.
import { loadSpecSync } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { rateLimitSummary } from '../build/rate-limit-summary.mjs';

describe('rate-limit summary', () => {
  it('states each API’s limit as its spec does', () => {
    expect(rateLimitSummary(loadSpecSync('collection').document['x-rate-limit'])).toBe(
      'Sliding log: 40 calls in any 60 seconds per client IP',
    );
    expect(rateLimitSummary(loadSpecSync('admin').document['x-rate-limit'])).toBe(
      'Leaky bucket per mall: holds 40 calls, drains 2 per second',
    );
    expect(rateLimitSummary(loadSpecSync('analytics').document['x-rate-limit'])).toBe(
      'Token bucket per mall: burst 10, one token every 2 seconds',
    );
  });
  it('follows a changed copy and refuses what it cannot describe', () => {
    const admin = loadSpecSync('admin').document['x-rate-limit'] as Record<string, unknown>;
    expect(rateLimitSummary({ ...admin, capacity: 80 })).toContain('holds 80 calls');
    expect(() => rateLimitSummary({ ...admin, algorithm: 'guesswork' })).toThrow(/guesswork/);
    expect(() => rateLimitSummary(undefined)).toThrow(/x-rate-limit/);
  });
});
