// The seeded sample mall: the same seed gives the same mall, another seed another one; it has a
// few hundred products in a category tree of several depths, placements consistent with each
// product's `category`, main-group products and bundles of existing products; and seeding a store
// that already holds data does nothing (a restart with a data directory keeps what is there).
import { describe, expect, it } from 'vitest';
import { createSandboxMalls } from '../malls/sandbox-malls.js';
import { seedProductCount } from './seed-data.js';

const snapshot = async (seed: number) => {
  const malls = await createSandboxMalls({ newMall: { seed }, malls: ['seeded'] });
  const taken = await malls.snapshot('seeded');
  if (!taken) throw new Error('the seeded mall exists');
  const { tables } = taken;
  await malls.close();
  const records = (entries: readonly (readonly [string, unknown])[]) => entries.map(([, record]) => record);
  return {
    category: records(tables.category),
    product: records(tables.product),
    categoryPlacement: records(tables.categoryPlacement),
    mainPlacement: records(tables.mainPlacement),
  };
};

describe('seed data', () => {
  it('is the same mall for the same seed and a different one for another seed', async () => {
    const [a, b, c] = [await snapshot(7), await snapshot(7), await snapshot(8)];
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a.product)).not.toBe(JSON.stringify(c.product));
  });

  it('holds a few hundred products in a category tree, with consistent placements and bundles', async () => {
    const data = await snapshot(42);
    // biome-ignore lint/suspicious/noExplicitAny: stored records are read loosely here
    const products = data.product as { bundle: boolean; record: Record<string, any> }[];
    expect(products.filter((p) => !p.bundle)).toHaveLength(seedProductCount);
    const depths = new Set((data.category as { category_depth: number }[]).map((c) => c.category_depth));
    expect([...depths].sort()).toEqual([1, 2, 3]);
    const numbers = new Set(products.map((p) => p.record.product_no));
    for (const bundle of products.filter((p) => p.bundle))
      for (const component of bundle.record.bundle_product_components)
        expect(numbers.has(component.product_no)).toBe(true);
    const placements = data.categoryPlacement as {
      product_no: number;
      category_no: number;
      display_group: number;
    }[];
    for (const { record } of products.filter((p) => !p.bundle).slice(0, 50)) {
      const own = placements.filter((p) => p.product_no === record.product_no && p.display_group === 1);
      expect(record.category.map((c: { category_no: number }) => c.category_no)).toEqual(
        own.map((p) => p.category_no),
      );
    }
    expect(data.mainPlacement.length).toBeGreaterThan(0);
  });
});
