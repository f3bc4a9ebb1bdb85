// The collection category codes the sandbox derives from a mall's category tree have the form the
// collection spec's examples show (`C100000`, `C100200`, `C100210`), so a documented code finds
// the sandbox's products; a displayed product written through the admin API is listed and counted
// by the collection under its code (outside every category: the catch-all C900000).
import { afterAll, describe, expect, it } from 'vitest';
import type { CategoryRecord } from '../catalogue/category-service.js';
import { closeTestMalls, openMall } from '../testing/test-malls.js';
import { collectionCodes } from './collection-store.js';

afterAll(closeTestMalls);

/** A category of the tree, with the fields the codes read. */
const category = (category_no: number, parent_category_no: number, category_depth: number) =>
  ({ category_no, parent_category_no, category_depth }) as CategoryRecord;

describe('collection category codes', () => {
  const tree = [
    category(24, 1, 1),
    category(25, 24, 2),
    category(26, 24, 2),
    category(27, 26, 3),
    category(28, 1, 1),
    category(29, 28, 2),
  ];
  const codesOf = collectionCodes(tree);

  it('number departments, sections and sub-sections in the documented seven-character form', () => {
    expect(codesOf(24)).toEqual(['C100000']);
    expect(codesOf(26)).toEqual(['C100000', 'C100200']);
    expect(codesOf(27)).toEqual(['C100000', 'C100200', 'C100210']);
    expect(codesOf(29)).toEqual(['C200000', 'C200100']);
  });

  it('give a category outside the tree no code', () => {
    expect(codesOf(999)).toEqual([]);
  });
});

describe('the collection over admin writes', () => {
  it('lists a displayed admin product under its category code, found by name, with its price', async () => {
    const mall = await openMall('collected');
    const product = await mall.createProduct({
      product_name: 'Collection Visible Lamp',
      supply_price: '100.00',
      price: '12345.00',
      display: 'T',
      selling: 'T',
    });
    const departments = Array.from({ length: 9 }, (_, i) => `C${i + 1}00000`);
    const found = await mall.answered('collection', 'listProducts', {
      query: { collection_product_category: departments, product_name: ['visible lamp'] },
    });
    expect(found.products).toEqual([
      expect.objectContaining({ product_no: product.product_no, price: '12345.00' }),
    ]);
    const count = await mall.answered('collection', 'countProducts', {
      query: { collection_product_category: ['C900000'], product_name: ['visible lamp'] },
    });
    expect(count.count).toBe(1);
  });
});
