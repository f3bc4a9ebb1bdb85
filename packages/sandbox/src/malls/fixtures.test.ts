// Fixtures in the admin API's request shapes: records name each other with `$id` and `{"$ref"}`,
// load through the services (so a bundle's components and a placement's products are real), and
// come back as counts; a record the spec's request schema refuses, one the services' integrity
// rules refuse, an unknown reference or a repeated `$id` leaves the mall exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxCall } from '../protocol.js';
import { createSandboxMalls, type SandboxMalls } from './sandbox-malls.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

let malls: SandboxMalls;
beforeAll(async () => {
  malls = await createSandboxMalls({
    newMall: 'empty',
    requestRules: (operationId, body) =>
      operationId === 'createProduct' && (body as Body).request.product_name === 'Forbidden'
        ? [{ name: 'request.product_name', message: 'is refused by a front-layer rule' }]
        : [],
  });
});
afterAll(() => malls.close());

const get = async (
  mallId: string,
  operationId: string,
  path: Record<string, unknown> = {},
): Promise<Body> => {
  const call: SandboxCall = { api: 'admin', operationId, path, query: {}, body: undefined, mallId };
  const result = await malls.handle(call);
  if (!result.ok) throw new Error(result.message);
  return result.body as Body;
};

const good = {
  categories: [
    { $id: 'home', category_name: 'Home' },
    { $id: 'mugs', category_name: 'Mugs', parent_category_no: { $ref: 'home' } },
  ],
  products: [
    {
      $id: 'mug',
      product_name: 'Stoneware Mug',
      supply_price: '4000.00',
      price: '9000.00',
      display: 'T',
      add_category_no: [{ category_no: { $ref: 'mugs' }, recommend: 'T' }],
    },
    { $id: 'saucer', product_name: 'Saucer', supply_price: '1000.00', display: 'T' },
  ],
  bundles: [
    {
      product_name: 'Tea Set',
      bundle_product_components: [
        { product_no: { $ref: 'mug' }, purchase_quantity: 2 },
        { product_no: { $ref: 'saucer' }, purchase_quantity: 2 },
      ],
      bundle_product_sales: { discount_value: '10.00', discount_type: 'P' },
    },
  ],
  placements: [
    { category_no: { $ref: 'home' }, display_group: 1, product_no: [{ $ref: 'saucer' }] },
    { main_display_group: 2, product_no: [{ $ref: 'mug' }, { $ref: 'saucer' }] },
  ],
};

describe('fixtures', () => {
  it('load in request shapes with references between records, through the services', async () => {
    expect(await malls.loadFixture('good', good)).toEqual({
      ok: true,
      counts: { categories: 2, products: 2, bundles: 1, placements: 5 },
    });
    const categories = (await get('good', 'listCategories')).categories as Body[];
    const [home, mugs] = categories;
    expect(mugs?.parent_category_no).toBe(home?.category_no);
    const products = (await get('good', 'listProducts')).products as Body[];
    const mug = products.find((p) => p.product_name === 'Stoneware Mug');
    expect(mug?.category).toEqual([{ category_no: mugs?.category_no, recommend: 'T', new: 'F' }]);
    const set = ((await get('good', 'listBundleProducts')).bundleproducts as Body[])[0];
    expect(set?.bundle_product_components.map((c: Body) => c.product_name)).toEqual([
      'Stoneware Mug',
      'Saucer',
    ]);
    expect((await get('good', 'listMainProducts', { display_group: 2 })).products).toHaveLength(2);
  });

  it('refuse a record the request schema refuses, naming it, and load nothing', async () => {
    await malls.reset('schema');
    const before = JSON.stringify(await malls.snapshot('schema'));
    const outcome = await malls.loadFixture('schema', {
      ...good,
      products: [...good.products, { product_name: 'No Price', supply_price: 'cheap' }],
    });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.violations.map((v) => v.name)).toEqual(['products/2.supply_price']);
    expect(JSON.stringify(await malls.snapshot('schema'))).toBe(before);
  });

  it('refuse a record an integrity rule refuses (a placement of a product that is not there) and load nothing', async () => {
    await malls.reset('integrity');
    const before = JSON.stringify(await malls.snapshot('integrity'));
    const outcome = await malls.loadFixture('integrity', {
      ...good,
      placements: [{ category_no: { $ref: 'home' }, product_no: [{ $ref: 'mug' }, 999] }],
    });
    expect(outcome).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'placements/0.product_no/1 product 999 does not exist',
      violations: [
        { location: 'body', name: 'placements/0.product_no/1', message: 'product 999 does not exist' },
      ],
    });
    expect(JSON.stringify(await malls.snapshot('integrity'))).toBe(before);
    expect((await get('integrity', 'countProducts')).count).toBe(0);
  });

  it('refuse a product related to a product that is not there, naming the record, and load nothing', async () => {
    await malls.reset('related');
    const before = JSON.stringify(await malls.snapshot('related'));
    const [first, ...rest] = good.products as Record<string, unknown>[];
    const outcome = await malls.loadFixture('related', {
      ...good,
      products: [
        first,
        { ...rest[0], relational_product: [{ product_no: 999, interrelated: 'T' }] },
        ...rest.slice(1),
      ],
    });
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'invalid',
      violations: [
        {
          location: 'body',
          name: 'products/1.relational_product/0/product_no',
          message: 'product 999 does not exist',
        },
      ],
    });
    expect(JSON.stringify(await malls.snapshot('related'))).toBe(before);
    expect((await get('related', 'countProducts')).count).toBe(0);
    const mug = { $ref: 'mug' };
    const related = await malls.loadFixture('related', {
      ...good,
      products: [
        first,
        { ...rest[0], relational_product: [{ product_no: mug, interrelated: 'T' }] },
        ...rest.slice(1),
      ],
    });
    expect(related).toMatchObject({ ok: true });
  });

  it('refuse unknown references, repeated ids, unknown sections and front-layer rule breaks', async () => {
    const unknown = await malls.loadFixture('refs', {
      categories: [
        { category_name: 'Child', parent_category_no: { $ref: 'later' } },
        { $id: 'later', category_name: 'Later' },
      ],
    });
    expect(unknown).toMatchObject({ ok: false, violations: [{ name: 'categories/0.$ref' }] });
    const repeated = await malls.loadFixture('refs', {
      categories: [
        { $id: 'a', category_name: 'A' },
        { $id: 'a', category_name: 'B' },
      ],
      shops: [],
    });
    expect(!repeated.ok && repeated.violations.map((v) => v.name)).toEqual(['shops', 'categories/1.$id']);
    const ruled = await malls.loadFixture('refs', {
      products: [{ product_name: 'Forbidden', supply_price: '1.00' }],
    });
    expect(ruled).toMatchObject({ ok: false, violations: [{ name: 'products/0.product_name' }] });
    expect((await get('refs', 'countCategories')).count).toBe(0);
  });

  it('can start every new mall', async () => {
    const started = await createSandboxMalls({ newMall: { fixture: 'shop' }, fixtures: { shop: good } });
    try {
      const result = await started.handle({
        api: 'admin',
        operationId: 'countProducts',
        path: {},
        query: {},
        body: undefined,
        mallId: 'fresh',
      });
      expect(result).toMatchObject({ ok: true, kind: 'found', body: { count: 3 } });
      await expect(
        createSandboxMalls({ newMall: { fixture: 'broken' }, fixtures: { broken: { products: [{}] } } }),
      ).rejects.toThrow(/new malls cannot start as configured: products\/0.product_name/);
    } finally {
      await started.close();
    }
  });
});
