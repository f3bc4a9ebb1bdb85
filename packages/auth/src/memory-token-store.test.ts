// Specification of the in-memory token store: the TokenStore contract (handles on one backend are
// the same object) and its in-process lock.
import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore } from './memory-token-store.js';
import { describeTokenStoreContract, sampleTokenSet } from './testing/token-store-contract.js';

describeTokenStoreContract('memory token store', (clock) => {
  const store = createMemoryTokenStore({ clock });
  return { open: async () => store };
});

describe('memory token store', () => {
  it('grants its lock in request order', async () => {
    const store = createMemoryTokenStore();
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        store.withLock('yourmall', async () => {
          await new Promise((resolve) => setTimeout(resolve, 5 - n));
          order.push(n);
        }),
      ),
    );
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('keeps separate stores separate', async () => {
    const [a, b] = [createMemoryTokenStore(), createMemoryTokenStore()];
    await a.set('yourmall', sampleTokenSet());
    expect(await b.get('yourmall')).toBeUndefined();
  });
});
