// A value derived from a store's tables is computed again only after a write or an undone write to
// one of its tables, and takes a value built ahead as computed.
import { createMemoryStore } from '@mall-api/mall-state';
import { describe, expect, it } from 'vitest';
import { derivedFrom } from './derived.js';

describe('a value derived from tables', () => {
  it('is computed again after a write or an undone write to its tables, and only then', () => {
    const store = createMemoryStore();
    let computed = 0;
    const names = derivedFrom(store, ['category'], () => {
      computed++;
      return store.all<{ name: string }>('category').map((c) => c.name);
    });
    expect(names()).toEqual([]);
    expect(names()).toEqual([]);
    expect(computed).toBe(1);
    store.transaction(() => store.put('product', '1', { name: 'elsewhere' }));
    expect(names()).toEqual([]);
    expect(computed).toBe(1);
    store.transaction(() => store.put('category', '1', { name: 'shoes' }));
    expect(names()).toEqual(['shoes']);
    expect(() =>
      store.transaction(() => {
        store.put('category', '2', { name: 'refused' });
        expect(names()).toEqual(['shoes', 'refused']);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(names()).toEqual(['shoes']);
    expect(computed).toBe(4);
  });

  it('takes a value built ahead as computed, until its tables change', () => {
    const store = createMemoryStore();
    let computed = 0;
    const names = derivedFrom(store, ['category'], () => {
      computed++;
      return store.all<{ name: string }>('category').map((c) => c.name);
    });
    names.prime(['built ahead']);
    expect(names()).toEqual(['built ahead']);
    expect(computed).toBe(0);
    store.transaction(() => store.put('category', '1', { name: 'shoes' }));
    expect(names()).toEqual(['shoes']);
    expect(computed).toBe(1);
  });
});
