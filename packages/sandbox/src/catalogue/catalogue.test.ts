// The catalogue's integrity rules at the services (no HTTP): category depth, parents and display
// sets; bundles of existing non-bundle products and the price of a set; rules that depend on the
// mall's settings and on stored values; placements that need an existing category and product,
// hidden products outside sections 2 and 3, sequences and pinned main-group products; and a
// removed category taking its sub-categories and placements with it. A refusal thrown inside a
// transaction leaves the store as it was.
import { createMemoryStore } from '@mall-api/mall-state';
import { loadSpec } from '@mall-api/spec-model';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Refusal } from '../protocol.js';
import { refusalOf as carried } from '../sandbox-result.js';
import { type Catalogue, createCatalogue } from './catalogue.js';
import type { MallSettings } from './product-service.js';
import { type RecordShapes, recordShapes } from './record-shapes.js';

let shapes: RecordShapes;
beforeAll(async () => {
  shapes = recordShapes(await loadSpec('admin'));
});

const now = Date.parse('2026-06-01T12:00:00+09:00');
const catalogue = (settings: Partial<MallSettings> = {}): Catalogue =>
  createCatalogue(createMemoryStore(), shapes, () => now, {
    globalEdition: false,
    ageVerification: false,
    shops: 1,
    ...settings,
  });

/** The refusal `work` throws inside a transaction (failing the test when it throws none). */
function refusalOf(c: Catalogue, work: () => unknown): Refusal {
  try {
    c.store.transaction(work);
  } catch (error) {
    const refusal = carried(error);
    if (refusal) return refusal;
    throw error;
  }
  throw new Error('expected a refusal');
}

const product = (c: Catalogue, request: Record<string, unknown> = {}) =>
  c.store.transaction(() =>
    c.products.create(1, { product_name: 'Mug', supply_price: '1000.00', display: 'T', ...request }, false),
  );
const category = (c: Catalogue, request: Record<string, unknown> = {}) =>
  c.store.transaction(() => c.categories.create(1, { category_name: 'Shelf', ...request }));

describe('categories', () => {
  it('refuses a fifth level naming parent_category_no, and an unknown parent with 404', () => {
    const c = catalogue();
    let parent = category(c);
    for (let depth = 2; depth <= 4; depth++) parent = category(c, { parent_category_no: parent.category_no });
    expect(parent.category_depth).toBe(4);
    const deep = refusalOf(c, () =>
      c.categories.create(1, { category_name: 'D5', parent_category_no: parent.category_no }),
    );
    expect(deep.reason).toBe('invalid');
    expect(deep.violations.map((v) => v.name)).toEqual(['request.parent_category_no']);
    expect(
      refusalOf(c, () => c.categories.create(1, { category_name: 'X', parent_category_no: 999 })).reason,
    ).toBe('not-found');
    expect(c.categories.all()).toHaveLength(4);
  });

  it('keeps full_category_name of sub-categories in step with a renamed parent', () => {
    const c = catalogue();
    const root = category(c, { category_name: 'Old' });
    const child = category(c, { category_name: 'Child', parent_category_no: root.category_no });
    c.store.transaction(() => c.categories.update(root.category_no, 1, { category_name: 'New' }));
    expect(c.categories.get(child.category_no).full_category_name).toMatchObject({ 1: 'New', 2: 'Child' });
  });

  it('needs a display period for product_display_key S', () => {
    const c = catalogue();
    const refused = refusalOf(c, () =>
      c.categories.create(1, {
        category_name: 'Sorted',
        product_display_key: 'S',
        product_display_period: null,
      }),
    );
    expect(refused.violations.map((v) => v.name)).toEqual(['request.product_display_period']);
  });
});

describe('products and bundles', () => {
  it('refuses a bundle with a missing component, naming its product_no, and creates nothing', () => {
    const c = catalogue();
    const part = product(c, { price: '2000.00' });
    const refused = refusalOf(c, () =>
      c.products.create(
        1,
        {
          product_name: 'Broken Set',
          bundle_product_components: [
            { product_no: part.product_no, purchase_quantity: 1 },
            { product_no: 999, purchase_quantity: 1 },
          ],
        },
        true,
      ),
    );
    expect(refused.violations.map((v) => v.name)).toEqual(['request.bundle_product_components/1/product_no']);
    expect(c.products.all()).toHaveLength(1);
    const set = c.store.transaction(() =>
      c.products.create(
        1,
        {
          product_name: 'Good Set',
          bundle_product_components: [{ product_no: part.product_no, purchase_quantity: 2 }],
          bundle_product_sales: { discount_value: '10.00', discount_type: 'P' },
        },
        true,
      ),
    );
    expect(set.bundle_product_sales).toMatchObject({ set_product_price: '3600.00' });
    const inUse = refusalOf(c, () => c.products.delete(part.product_no, false));
    expect(inUse.violations).toEqual([
      { location: 'path', name: 'product_no', message: `is a component of bundle ${set.product_no}` },
    ]);
  });

  it('refuses a bundle of a bundle', () => {
    const c = catalogue();
    const part = product(c);
    const set = c.store.transaction(() =>
      c.products.create(
        1,
        {
          product_name: 'Set',
          bundle_product_components: [{ product_no: part.product_no, purchase_quantity: 1 }],
        },
        true,
      ),
    );
    const refused = refusalOf(c, () =>
      c.products.create(
        1,
        {
          product_name: 'Nested',
          bundle_product_components: [{ product_no: set.product_no, purchase_quantity: 1 }],
        },
        true,
      ),
    );
    expect(refused.violations[0]?.message).toMatch(/is itself a bundle/);
  });

  it('applies the rules of the mall settings: age verification and the global edition', () => {
    const domestic = catalogue();
    expect(
      refusalOf(domestic, () => product(domestic, { adult_certification: 'T' })).violations.map(
        (v) => v.name,
      ),
    ).toEqual(['request.adult_certification']);
    const global = catalogue({ globalEdition: true, ageVerification: true });
    const refused = refusalOf(global, () => product(global, { shipping_scope: 'A', image_upload_type: 'C' }));
    expect(refused.violations.map((v) => v.name)).toEqual([
      'request.shipping_scope',
      'request.image_upload_type',
    ]);
    expect(product(global, { shipping_scope: 'C', adult_certification: 'T' }).adult_certification).toBe('T');
  });

  it('checks an update against the stored values: used months only for used products, own categories only', () => {
    const c = catalogue();
    const mug = product(c);
    const refused = refusalOf(c, () =>
      c.products.update(mug.product_no, 1, { product_used_month: 3, delete_category_no: [77] }, false),
    );
    expect(refused.violations.map((v) => v.name).sort()).toEqual([
      'request.delete_category_no/0',
      'request.product_used_month',
    ]);
    expect(c.products.get(mug.product_no, false).updated_date).toBe(mug.updated_date);
  });
});

describe('placements', () => {
  it('need an existing category and product; a product left out is reported, the others placed', () => {
    const c = catalogue();
    const shelf = category(c);
    const mug = product(c);
    expect(refusalOf(c, () => c.placements.addToCategory(1, 999, 1, [mug.product_no])).reason).toBe(
      'not-found',
    );
    const outcome = c.store.transaction(() =>
      c.placements.addToCategory(1, shelf.category_no, 1, [mug.product_no, 999]),
    );
    expect(outcome).toEqual({ added: [mug.product_no], refused: [{ index: 1, productNo: 999 }] });
    expect(c.products.get(mug.product_no, false).category).toEqual([
      { category_no: shelf.category_no, recommend: 'F', new: 'F' },
    ]);
  });

  it('do not show display-F products in the recommended and new sections', () => {
    const c = catalogue();
    const shelf = category(c);
    const hidden = product(c, { display: 'F' });
    const shown = product(c);
    c.store.transaction(() =>
      c.placements.addToCategory(1, shelf.category_no, 2, [hidden.product_no, shown.product_no]),
    );
    const numbers = (group: number) =>
      c.placements.listCategoryProducts(shelf.category_no, group).map((p) => p.product_no);
    expect(numbers(2)).toEqual([shown.product_no]);
    expect(numbers(1)).toEqual([hidden.product_no, shown.product_no]);
  });

  it('move to a sequence, and pin main-group products; a product not in the group is refused', () => {
    const c = catalogue();
    const shelf = category(c);
    const numbers = [product(c), product(c), product(c)].map((p) => p.product_no) as [number, number, number];
    c.store.transaction(() => c.placements.addToCategory(1, shelf.category_no, 1, numbers));
    c.store.transaction(() =>
      c.placements.updateCategoryPlacement(1, shelf.category_no, 1, numbers[2], { sequence: 1 }),
    );
    expect(c.placements.listCategoryProducts(shelf.category_no, 1).map((p) => p.product_no)).toEqual([
      numbers[2],
      numbers[0],
      numbers[1],
    ]);
    c.store.transaction(() => c.placements.addToMain(1, 3, numbers));
    c.store.transaction(() => c.placements.reorderMain(1, 3, [numbers[1], numbers[0]], [numbers[1]]));
    expect(c.placements.listMainProducts(3).map((p) => [p.product_no, p.fixed_sort])).toEqual([
      [numbers[1], true],
      [numbers[0], false],
      [numbers[2], false],
    ]);
    expect(refusalOf(c, () => c.placements.reorderMain(1, 3, [999], [])).reason).toBe('invalid');
    expect(refusalOf(c, () => c.placements.listMainProducts(99)).reason).toBe('not-found');
  });
});

describe('removing a category', () => {
  it('takes its sub-categories and every placement in them, and clears the products’ categories', () => {
    const c = catalogue();
    const doomed = category(c);
    const sub = category(c, { parent_category_no: doomed.category_no });
    const orphan = product(c, { add_category_no: [{ category_no: doomed.category_no, recommend: 'T' }] });
    expect(orphan.category).toEqual([{ category_no: doomed.category_no, recommend: 'T', new: 'F' }]);
    expect(c.store.transaction(() => c.removeCategory(doomed.category_no))).toEqual([
      doomed.category_no,
      sub.category_no,
    ]);
    expect(c.categories.find(sub.category_no)).toBeUndefined();
    expect(c.products.get(orphan.product_no, false).category).toEqual([]);
    expect(c.store.size('categoryPlacement')).toBe(0);
  });
});
