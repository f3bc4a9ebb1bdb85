// Collection queries over every mall through the cross-mall index answer exactly what reading the
// malls one by one answers — pages in mall order, pages in every sort order, counts — with many
// malls, and still after malls change, are reset, dropped and created; the filters that select an
// attribute by value are the operation's enum query parameters naming a product attribute.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxMalls, type SandboxMalls } from '../malls/sandbox-malls.js';
import type { SandboxOutcome } from '../protocol.js';
import { collectionCall } from '../testing/test-malls.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

const opened: SandboxMalls[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
});

const bodyOf = (result: SandboxOutcome): Body => {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.body as Body;
};
const collection = async (malls: SandboxMalls, operationId: string, query: Record<string, unknown>) =>
  bodyOf(await malls.handle(collectionCall(operationId, query)));
const ukeys = (products: Body[]) => products.map((p) => p.product_ukey as string);

/** Every page of listProducts at one mall (its own store, read directly). */
const allOfMall = async (malls: SandboxMalls, mallId: string, query: Record<string, unknown>) => {
  const found: Body[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await collection(malls, 'listProducts', { ...query, store_id: mallId, offset, limit: 100 }))
      .products as Body[];
    found.push(...page);
    if (page.length < 100) return found;
  }
};

/** Creates a displayed product at a mall. */
const addProduct = async (malls: SandboxMalls, mallId: string, name: string, price: string) =>
  bodyOf(
    await malls.handle({
      api: 'admin',
      operationId: 'createProduct',
      path: {},
      query: {},
      body: { request: { product_name: name, price, supply_price: '1.00', display: 'T', selling: 'T' } },
      mallId,
    }),
  );

/** Checks that every mall-order page, sorted page and count over all malls matches the malls read one by one. */
const expectSameAsMallByMall = async (malls: SandboxMalls) => {
  const ids = await malls.mallIds();
  const filters = [
    { collection_product_category: ['C900000'] },
    { collection_product_category: ['C100000', 'C900000'], product_name: ['lamp'] },
    { collection_product_category: ['C900000'], product_status_type: 'N' },
  ];
  for (const filter of filters) {
    const mallByMall = (await Promise.all(ids.map((id) => allOfMall(malls, id, filter)))).flat();
    expect((await collection(malls, 'countProducts', filter)).count).toBe(mallByMall.length);
    for (const window of [
      { offset: 0, limit: 7 },
      { offset: 13, limit: 20 },
      { offset: 95, limit: 100 },
    ])
      expect(ukeys((await collection(malls, 'listProducts', { ...filter, ...window })).products)).toEqual(
        ukeys(mallByMall.slice(window.offset, window.offset + window.limit)),
      );
  }
  for (const sort of ['price', 'product_name', 'created_date'])
    for (const order of ['asc', 'desc']) {
      const query = { sort, order, offset: 5, limit: 40 };
      expect(ukeys((await collection(malls, 'listStoreProducts', query)).store_products)).toEqual(
        ukeys((await collection(malls, 'listStoreProducts', { ...query, store_id: ids })).store_products),
      );
    }
};

describe('the cross-mall index', () => {
  it('answers lists and counts over 40 malls as the malls read one by one, as they change', async () => {
    let tick = Date.parse('2026-01-01T00:00:00Z');
    const malls = await createSandboxMalls({ newMall: 'empty', clockFor: () => () => (tick += 60_000) });
    opened.push(malls);
    for (let m = 0; m < 40; m += 1)
      for (let p = 0; p < 1 + (m % 5); p += 1)
        await addProduct(
          malls,
          `mall-${String(m).padStart(2, '0')}`,
          `${p % 2 ? 'lamp' : 'mug'} ${m}-${p}`,
          `${(m * 7 + p * 13) % 50}.00`,
        );
    await expectSameAsMallByMall(malls);
    await addProduct(malls, 'mall-07', 'lamp late', '3.00');
    await malls.drop('mall-12');
    await addProduct(malls, 'mall-99', 'lamp new mall', '49.00');
    await malls.reset('mall-20', 'empty');
    await malls.loadFixture('mall-21', {
      products: [{ product_name: 'lamp loaded', supply_price: '1.00', display: 'T' }],
    });
    await expectSameAsMallByMall(malls);
  });

  it('filters by the product status and the store grade as their parameters declare', async () => {
    const malls = await createSandboxMalls({ newMall: 'empty' });
    opened.push(malls);
    await addProduct(malls, 'a', 'lamp', '1.00');
    const query = { collection_product_category: ['C900000'] };
    expect((await collection(malls, 'countProducts', { ...query, product_status_type: 'N' })).count).toBe(1);
    expect((await collection(malls, 'countProducts', { ...query, product_status_type: 'S' })).count).toBe(0);
    const [product] = (await collection(malls, 'listProducts', query)).products as Body[];
    const otherGrade = ['black', 'purple'].find((grade) => grade !== product?.shop_grade);
    expect(
      (await collection(malls, 'listProducts', { ...query, shop_grade: [product?.shop_grade] })).products,
    ).toHaveLength(1);
    expect(
      (await collection(malls, 'listProducts', { ...query, shop_grade: [otherGrade] })).products,
    ).toEqual([]);
  });
});
