// No 429 from our own scheduling, for each API's algorithm as its spec states it, in simulated
// time against the real server limiter: bulk calls across the sliding log's window edges with
// network times that vary per request, a server clock 500 ms ahead or behind, and calls another
// process made before; bulk runs take at most 1.05 times the least time the limit allows.
import { apiNames } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { apiLimits } from './api-limits.js';
import { minimumBulkMs, simulateBulk } from './bulk-simulation.js';

/** A repeatable source of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** 5 to 125 ms each way, different for every request and answer. */
const jitteredLatency = (seed: number) => {
  const random = seeded(seed);
  return () => 5 + random() * 120;
};

const apis = apiNames;

describe('simulated bulk fetches', () => {
  it('states the least time each limit allows, from the spec', () => {
    // The collection's sliding log (40 in any 60 s): call 41 a window after call 1, call 81 two.
    expect(apiLimits.collection.policy).toEqual({ kind: 'sliding-log', limit: 40, windowMs: 60_000 });
    expect(minimumBulkMs('collection', 100)).toBe(120_000);
    expect(minimumBulkMs('collection', 40)).toBe(0);
    expect(minimumBulkMs('admin', 100)).toBe(30_000);
    expect(minimumBulkMs('analytics', 100)).toBe(180_000);
  });

  describe.each(apis)('%s', (api) => {
    it.each([-500, 0, 500])(
      '100 calls at once, varying network times, server clock off by %i ms: no 429, within 1.05 × the minimum',
      async (skewMs) => {
        const outcome = await simulateBulk({ api, calls: 100, skewMs, latencyMs: jitteredLatency(7) });
        expect(outcome.tooMany).toBe(0);
        expect(outcome.statuses.every((status) => status === 200)).toBe(true);
        expect(outcome.elapsedMs).toBeGreaterThanOrEqual(outcome.minimumMs);
        expect(outcome.elapsedMs).toBeLessThanOrEqual(outcome.minimumMs * 1.05);
      },
    );

    it('after calls another process made, the headers of the first answer hold the rest back: no 429', async () => {
      const outcome = await simulateBulk({
        api,
        calls: 60,
        latencyMs: jitteredLatency(3),
        othersBefore: api === 'analytics' ? 8 : 30,
        othersSpanMs: api === 'collection' ? 30_000 : 2_000,
      });
      expect(outcome.tooMany).toBe(0);
      expect(outcome.statuses.every((status) => status === 200)).toBe(true);
    });
  });
});
