// Views held while recent: a derived value among the latest used stays (not computed again), one
// that fell out of them is collected by the garbage collector and computed again on its next read;
// a value without a holder stays until its tables change.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMemoryStore } from '@mall-api/mall-state';
import { describe, expect, it } from 'vitest';
import { derivedFrom } from './derived.js';
import { recentValues } from './recent-values.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
/** Lets the current job end (weak references made in it are kept until then), then collects. */
const collect = async () => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  collectGarbage();
};

describe('recent values', () => {
  it('keep a derived view while it is among the latest used, and let it go after', async () => {
    const store = createMemoryStore();
    const recent = recentValues(1);
    let computed = 0;
    const view = derivedFrom(
      store,
      ['product'],
      () => ({ computed: ++computed, rows: new Array(1000).fill(0) }),
      recent,
    );
    expect(view().computed).toBe(1);
    await collect();
    expect(view().computed).toBe(1);
    recent.use({ another: 'view' });
    await collect();
    expect(view().computed).toBe(2);
  });

  it('hold at most their capacity, the least recently used going first', async () => {
    const recent = recentValues(2);
    const refs = [{ n: 1 }, { n: 2 }, { n: 3 }].map((value) => {
      recent.use(value);
      return new WeakRef(value);
    });
    await collect();
    expect(refs.map((ref) => ref.deref()?.n)).toEqual([undefined, 2, 3]);
  });

  it('are not needed for a view kept until its tables change', async () => {
    const store = createMemoryStore();
    let computed = 0;
    const view = derivedFrom(store, ['product'], () => ({ computed: ++computed }));
    view();
    await collect();
    expect(view().computed).toBe(1);
    store.transaction(() => store.put('product', '1', { bundle: false, record: {} }));
    expect(view().computed).toBe(2);
  });
});
