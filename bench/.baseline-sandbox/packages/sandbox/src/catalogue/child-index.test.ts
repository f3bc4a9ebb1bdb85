// The sub-category index at the function: kept current through its own writes, rebuilt after
// any other change (a delete, an undone transaction), children in the order they were added.
import { createMemoryStore } from '@mall-api/mall-state';
import { describe, expect, it } from 'vitest';
import { createChildIndex } from './child-index.js';

describe('child index', () => {
  it('follows writes through it and rebuilds after other changes', () => {
    const store = createMemoryStore();
    const index = createChildIndex(store);
    const put = (category_no: number, parent_category_no: number) => {
      const category = { category_no, parent_category_no };
      index.put(category, () => store.put('category', String(category_no), category));
    };
    store.transaction(() => {
      put(23, 1);
      put(24, 23);
      put(25, 23);
      put(24, 23); // an update keeps its place
    });
    expect(index.childrenOf(23)).toEqual([24, 25]);
    expect(index.childrenOf(1)).toEqual([23]);
    store.transaction(() => store.delete('category', '24'));
    expect(index.childrenOf(23)).toEqual([25]);
    expect(() =>
      store.transaction(() => {
        put(26, 23);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(index.childrenOf(23)).toEqual([25]);
  });
});
