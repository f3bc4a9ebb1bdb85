// The per-mall stores in this process's memory: the rate limiter of an API at a mall is kept while
// it is used (the same buckets on every call), and the limiters of at most four times the roster's
// cap of malls are kept, the least recently used going first.
import { apiLimits } from '@mall-api/rate-limit';
import { describe, expect, it } from 'vitest';
import { memoryMallStores } from './mall-state-stores.js';

describe('memory mall stores', () => {
  it('keeps the limiters of at most four times maxMalls, least recently used going first', () => {
    const stores = memoryMallStores({ maxMalls: 1 });
    const limiterOf = (mallId: string) => stores.limiter(apiLimits.collection, mallId, () => 0);
    const first = limiterOf('m1');
    expect(limiterOf('m1')).toBe(first);
    const kept = ['m2', 'm3', 'm4'].map(limiterOf);
    // m1 is the least recently used of five: it goes, the other four stay.
    limiterOf('m5');
    ['m2', 'm3', 'm4'].forEach((mallId, index) => {
      expect(limiterOf(mallId)).toBe(kept[index]);
    });
    expect(limiterOf('m1')).not.toBe(first);
  });
});
