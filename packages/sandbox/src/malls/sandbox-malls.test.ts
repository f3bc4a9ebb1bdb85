// The sandbox malls at their surface (no HTTP): every mall id is its own mall with its own records
// and id sequences, even with eight used at once; answers and refusals come back as values (a
// refused write keeps nothing); the collection serves one store per mall; a reset gives exactly the
// seeded mall again, or an empty one, or a fixture; a snapshot restores a mall exactly and a bad
// one (a malformed entry or a record its schema refuses) changes nothing; an unknown mall has no snapshot; a dropped mall is gone (from a data
// directory too); dates follow each mall's clock; and a data directory keeps every mall
// across a restart.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '@mall-api/mall-state';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxCall, SandboxOutcome } from '../protocol.js';
import { seedBundleCount, seedProductCount } from '../seed/seed-data.js';
import { collectionCall } from '../testing/test-malls.js';
import { createSandboxMalls, type SandboxMalls } from './sandbox-malls.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

const opened: SandboxMalls[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const malls of opened.splice(0)) await malls.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const open = async (options: Parameters<typeof createSandboxMalls>[0] = {}) => {
  const malls = await createSandboxMalls(options);
  opened.push(malls);
  return malls;
};

/** An admin call to a mall. */
const admin = (
  operationId: string,
  mallId: string,
  parts: Partial<Pick<SandboxCall, 'path' | 'query' | 'body'>> = {},
): SandboxCall => ({ api: 'admin', operationId, path: {}, query: {}, body: undefined, mallId, ...parts });
const bodyOf = (result: SandboxOutcome): Body => {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.body as Body;
};
const createCategory = async (malls: SandboxMalls, mallId: string, name: string) =>
  bodyOf(await malls.handle(admin('createCategory', mallId, { body: { request: { category_name: name } } })))
    .category as Body;
const count = async (malls: SandboxMalls, mallId: string, operationId = 'countCategories') =>
  bodyOf(await malls.handle(admin(operationId, mallId))).count as number;

describe('malls', () => {
  it('keeps eight malls used at once apart: own records, own id sequences', async () => {
    const malls = await open({ newMall: 'empty' });
    const ids = Array.from({ length: 8 }, (_, i) => `qa-run-${i}`);
    await Promise.all(
      ids.map(async (mallId, i) => {
        for (let n = 0; n <= i; n++) {
          await Promise.resolve();
          await createCategory(malls, mallId, `${mallId} shelf ${n}`);
        }
      }),
    );
    expect(await malls.mallIds()).toEqual(ids);
    for (const [i, mallId] of ids.entries()) {
      const listed = bodyOf(await malls.handle(admin('listCategories', mallId, { query: { limit: 100 } })))
        .categories as Body[];
      expect(listed.map((c) => c.category_name)).toEqual(
        Array.from({ length: i + 1 }, (_, n) => `${mallId} shelf ${n}`),
      );
      expect(listed[0]?.category_no).toBe(24);
    }
  });

  it('answers with values: typed parameters in, a refusal with violations out, nothing kept', async () => {
    const malls = await open({ newMall: 'empty', mall: { shops: 2 } });
    const shelf = await createCategory(malls, 'm', 'Shelf');
    const deep = await malls.handle(
      admin('createCategory', 'm', {
        body: { request: { category_name: 'Lost', parent_category_no: 999 } },
      }),
    );
    expect(deep).toMatchObject({ ok: false, reason: 'not-found', violations: [] });
    const noShop = await malls.handle(admin('listCategories', 'm', { query: { shop_no: 3 } }));
    expect(noShop).toMatchObject({
      ok: false,
      reason: 'invalid',
      violations: [{ location: 'query', name: 'shop_no' }],
    });
    const mug = bodyOf(
      await malls.handle(
        admin('createProduct', 'm', {
          body: { request: { product_name: 'Mug', supply_price: '1.00', display: 'T' } },
        }),
      ),
    ).product as Body;
    const partial = await malls.handle(
      admin('createCategoryProduct', 'm', {
        path: { category_no: shelf.category_no },
        body: { request: { product_no: [mug.product_no, 999] } },
      }),
    );
    expect(partial).toEqual({
      ok: true,
      kind: 'partly-applied',
      body: { product: { shop_no: 1, display_group: 1, product_no: [mug.product_no] } },
      items: [
        { index: 0, product_no: mug.product_no },
        { index: 1, product_no: 999, refused: { reason: 'invalid', message: 'product 999 does not exist' } },
      ],
    });
    const listed = bodyOf(
      await malls.handle(
        admin('listProducts', 'm', { query: { product_no: [mug.product_no], fields: ['product_name'] } }),
      ),
    );
    expect(listed.products).toEqual([{ product_no: mug.product_no, product_name: 'Mug' }]);
    expect(await count(malls, 'm')).toBe(1);
    expect(malls.handles('admin', 'listProducts')).toBe(true);
    expect(malls.handles('admin', 'listApps')).toBe(false);
  });

  it('lists store products in the spec’s default order (mobile_discount_price, ascending) when none is asked', async () => {
    const malls = await open({ newMall: 'empty' });
    for (const [name, price] of [
      ['dear', '30.00'],
      ['cheap', '10.00'],
      ['middle', '20.00'],
    ] as const)
      bodyOf(
        await malls.handle(
          admin('createProduct', 'gamma', {
            body: { request: { product_name: name, price, supply_price: '1.00', display: 'T' } },
          }),
        ),
      );
    const names = async (query: Record<string, unknown>) =>
      (
        bodyOf(
          await malls.handle({
            api: 'collection',
            operationId: 'listStoreProducts',
            path: {},
            query: { store_id: ['gamma'], ...query },
            body: undefined,
            mallId: undefined,
          }),
        ).store_products as Body[]
      ).map((p) => p.product_name);
    expect(await names({})).toEqual(['cheap', 'middle', 'dear']);
    expect(await names({ order: 'desc' })).toEqual(['dear', 'middle', 'cheap']);
  });

  it('serves one collection store per mall: store_id is the mall id, /api/shops lists their shops', async () => {
    const malls = await open({ newMall: 'empty', mall: { shops: 2 } });
    for (const mallId of ['alpha', 'beta']) {
      bodyOf(
        await malls.handle(
          admin('createProduct', mallId, {
            body: { request: { product_name: `${mallId} lamp`, supply_price: '1.00', display: 'T' } },
          }),
        ),
      );
    }
    const collection = async (operationId: string, query: Record<string, unknown>) =>
      bodyOf(await malls.handle(collectionCall(operationId, query)));
    const all = (await collection('listStoreProducts', { store_id: ['alpha', 'beta'] }))
      .store_products as Body[];
    expect(all.map((p) => [p.store_id, p.shop_no, p.product_name])).toEqual([
      ['alpha', 1, 'alpha lamp'],
      ['alpha', 2, 'alpha lamp'],
      ['beta', 1, 'beta lamp'],
      ['beta', 2, 'beta lamp'],
    ]);
    expect((await collection('countProducts', { collection_product_category: ['C900000'] })).count).toBe(4);
    expect(
      (
        (await collection('listProducts', { collection_product_category: ['C900000'], store_id: 'beta' }))
          .products as Body[]
      ).map((p) => p.product_ukey),
    ).toEqual([`beta_1_${all[2]?.product_no}`, `beta_2_${all[2]?.product_no}`]);
    const language = String(all[0]?.shop_language);
    const otherLanguage = language === 'en_US' ? 'ko_KR' : 'en_US';
    const byLanguage = async (shop_language: unknown) =>
      (await collection('listProducts', { collection_product_category: ['C900000'], shop_language }))
        .products as Body[];
    const having = (...languages: string[]) => all.filter((p) => languages.includes(String(p.shop_language)));
    expect(await byLanguage(language)).toHaveLength(having(language).length);
    expect((await byLanguage(language)).length).toBeGreaterThan(0);
    expect(await byLanguage(otherLanguage)).toHaveLength(having(otherLanguage).length);
    expect(await byLanguage([otherLanguage, language])).toHaveLength(having(otherLanguage, language).length);
    expect(
      (
        await collection('countProducts', {
          collection_product_category: ['C900000'],
          product_status_type: 'S',
        })
      ).count,
    ).toBe(all.filter((p) => p.product_status_type === 'S').length);
    const shops = (await collection('listShops', {})).shops as Body[];
    expect(shops.map((s) => [s.store_id, s.shop_no])).toEqual([
      ['alpha', 1],
      ['alpha', 2],
      ['beta', 1],
      ['beta', 2],
    ]);
    expect((await collection('listShops', { store_id: 'beta', shop_no: [2] })).shops).toHaveLength(1);
    const grade = String(shops[0]?.shop_grade);
    expect(grade).toMatch(/^[a-z]+$/);
    const graded = shops.filter((shop) => shop.shop_grade === grade);
    const withGrade = (await collection('listShops', { shop_properties: [`shop_grade:${grade}`] }))
      .shops as Body[];
    expect(withGrade).toEqual(graded);
    expect((await collection('listShops', { shop_properties: ['shop_grade:no-such-grade'] })).shops).toEqual(
      [],
    );
    expect(
      (
        await collection('listShops', {
          shop_properties: ['shop_grade:no-such-grade', `shop_grade:${grade}`],
        })
      ).shops,
    ).toEqual(graded);
  });

  it('resets a mall to exactly its seed, to empty, or to a fixture', async () => {
    const malls = await open({
      newMall: { seed: 3 },
      fixtures: { tiny: { categories: [{ category_name: 'Only' }] } },
    });
    await createCategory(malls, 's', 'Added');
    await malls.reset('s');
    const seeded = JSON.stringify(await malls.snapshot('s'));
    const fresh = await open({ newMall: { seed: 3 } });
    await fresh.reset('other');
    expect(JSON.stringify(await fresh.snapshot('other'))).toBe(seeded);
    await createCategory(malls, 's', 'Added');
    await malls.handle(admin('deleteProduct', 's', { path: { product_no: 12 } }));
    expect(JSON.stringify(await malls.snapshot('s'))).not.toBe(seeded);
    expect(await malls.reset('s')).toMatchObject({
      ok: true,
      counts: { products: seedProductCount, bundles: seedBundleCount },
    });
    expect(JSON.stringify(await malls.snapshot('s'))).toBe(seeded);
    expect(await malls.reset('s', 'empty')).toEqual({
      ok: true,
      counts: { categories: 0, products: 0, bundles: 0, placements: 0 },
    });
    expect(await malls.reset('s', { fixture: 'tiny' })).toMatchObject({
      ok: true,
      counts: { categories: 1 },
    });
    const unknown = await malls.reset('s', { fixture: 'missing' });
    expect(unknown).toMatchObject({ ok: false, violations: [{ name: 'fixture' }] });
    expect(await count(malls, 's')).toBe(1);
  });

  it('restores a snapshot exactly, and refuses a bad one without changing anything', async () => {
    const malls = await open({ newMall: 'empty' });
    await createCategory(malls, 'a', 'Kept');
    const snapshot = await malls.snapshot('a');
    if (!snapshot) throw new Error('mall a exists');
    await createCategory(malls, 'a', 'Later');
    const before = JSON.stringify(await malls.snapshot('a'));
    const bad = await malls.restore('a', { ...snapshot, tables: { ...snapshot.tables, product: [['1']] } });
    expect(bad).toMatchObject({ ok: false, violations: [{ name: 'tables.product/0' }] });
    expect(JSON.stringify(await malls.snapshot('a'))).toBe(before);
    expect(await malls.restore('b', JSON.parse(JSON.stringify(snapshot)))).toMatchObject({ ok: true });
    expect(await malls.snapshot('b')).toEqual(snapshot);
    expect((await createCategory(malls, 'b', 'Next')).category_no).toBe(25);
  });

  it('refuses a snapshot whose records break their schemas, naming the record and field, changing nothing', async () => {
    const malls = await open();
    await count(malls, 'a');
    const snapshot = await malls.snapshot('a');
    if (!snapshot) throw new Error('mall a exists');
    const before = JSON.stringify(snapshot);
    const tables = structuredClone(snapshot.tables) as Body;
    tables.category[3][1].category_name = 42;
    tables.product[7][1].record.price = 'free';
    tables.sequence[0][1].value = 'next';
    const refused = await malls.restore('a', { ...snapshot, tables });
    expect(refused).toMatchObject({ ok: false });
    if (refused.ok) return;
    const names = refused.violations.map((v) => v.name);
    expect(names).toContain('tables.category/3.category_name');
    expect(names).toContain('tables.product/7.record.price');
    expect(names).toContain('tables.sequence/0.value');
    expect(JSON.stringify(await malls.snapshot('a'))).toBe(before);
    expect(await malls.restore('a', JSON.parse(before))).toMatchObject({ ok: true });
  });

  it('refuses a snapshot with a record under another key, a repeated key or a reference to nothing, naming the record, changing nothing', async () => {
    const malls = await open();
    await count(malls, 'a');
    const snapshot = await malls.snapshot('a');
    if (!snapshot) throw new Error('mall a exists');
    const before = JSON.stringify(snapshot);
    const broken = (change: (tables: Body) => void) => {
      const tables = structuredClone(snapshot.tables) as Body;
      change(tables);
      return { ...snapshot, tables };
    };
    const cases: [string, (tables: Body) => void, string, RegExp][] = [
      [
        'a product under another number',
        (t) => (t.product[2][0] = '999999'),
        'tables.product/2',
        /stored under 999999/,
      ],
      [
        'a repeated key',
        (t) => t.category.push(structuredClone(t.category[0])),
        `tables.category/${snapshot.tables.category.length}`,
        /repeats the key/,
      ],
      [
        'a placement of a missing product',
        (t) => {
          const [, placement] = t.categoryPlacement[0];
          const moved = { ...placement, product_no: 999999 };
          t.categoryPlacement[0] = [`${moved.category_no}:${moved.display_group}:999999`, moved];
        },
        'tables.categoryPlacement/0',
        /product 999999/,
      ],
      [
        'a bundle of a missing product',
        (t) => {
          const index = t.product.findIndex(([, entry]: [string, Body]) => entry.bundle);
          t.product[index][1].record.bundle_product_components[0].product_no = 999999;
        },
        `tables.product/${snapshot.tables.product.findIndex(([, entry]) => (entry as Body).bundle)}`,
        /bundle_product_components\/0\/product_no product 999999 does not exist/,
      ],
      [
        'a product in a missing category',
        (t) => t.product[0][1].record.category.push({ category_no: 999999, recommend: 'F', new: 'F' }),
        'tables.product/0',
        /category 999999/,
      ],
      [
        'a product related to a missing product',
        (t) => {
          t.product[0][1].record.relational_product = [{ product_no: 999999, interrelated: 'T' }];
        },
        'tables.product/0',
        /relational_product\/0\/product_no product 999999 does not exist/,
      ],
      [
        'a product related to itself',
        (t) => {
          const record = t.product[0][1].record;
          record.relational_product = [{ product_no: record.product_no, interrelated: 'T' }];
        },
        'tables.product/0',
        /relational_product\/0\/product_no names the product itself/,
      ],
      [
        'a sub-category of a missing parent',
        (t) => {
          const index = t.category.findIndex(([, c]: [string, Body]) => c.category_depth > 1);
          t.category[index][1].parent_category_no = 999999;
        },
        `tables.category/${snapshot.tables.category.findIndex(([, c]) => (c as Body).category_depth > 1)}`,
        /parent_category_no category 999999 does not exist/,
      ],
      [
        "a shop's placement of a product in a missing category",
        (t) => {
          t.product[0][1].shopPlacements = {
            2: { category: [{ category_no: 999999, recommend: 'F', new: 'F' }] },
          };
        },
        'tables.product/0',
        /category 999999/,
      ],
      [
        'a main placement in a missing group',
        (t) => {
          const [, placement] = t.mainPlacement[0];
          t.mainPlacement[0] = [`99:${placement.product_no}`, { ...placement, display_group: 99 }];
        },
        'tables.mainPlacement/0',
        /main group 99/,
      ],
    ];
    for (const [what, change, name, message] of cases) {
      const refused = await malls.restore('a', broken(change));
      expect(refused, what).toMatchObject({ ok: false, reason: 'invalid' });
      if (refused.ok) continue;
      // A moved record also leaves what referred to it pointing at nothing: each is named.
      expect(refused.violations, what).toContainEqual(
        expect.objectContaining({ name, message: expect.stringMatching(message) }),
      );
      for (const violation of refused.violations) expect(violation.name, what).toMatch(/^tables\.\w+\/\d+$/);
      expect(JSON.stringify(await malls.snapshot('a')), what).toBe(before);
    }
    expect(await malls.restore('a', JSON.parse(before))).toMatchObject({ ok: true });
  });

  it('keeps the collection count over every mall current as malls change, are dropped and created', async () => {
    const malls = await open({ newMall: 'empty' });
    const lamp = async (mallId: string, name: string) =>
      bodyOf(
        await malls.handle(
          admin('createProduct', mallId, {
            body: { request: { product_name: name, supply_price: '1.00', display: 'T' } },
          }),
        ),
      ).product as Body;
    const total = async (query: Record<string, unknown> = {}) =>
      bodyOf(
        await malls.handle({
          api: 'collection',
          operationId: 'countProducts',
          path: {},
          query: { collection_product_category: ['C900000'], ...query },
          body: undefined,
          mallId: undefined,
        }),
      ).count as number;
    await lamp('a', 'a one');
    await lamp('b', 'b one');
    expect(await total()).toBe(2);
    await lamp('a', 'a two');
    expect(await total()).toBe(3);
    expect(await total({ product_name: 'two' })).toBe(1);
    const gone = await lamp('b', 'b two');
    await malls.handle(admin('deleteProduct', 'b', { path: { product_no: gone.product_no } }));
    expect(await total()).toBe(3);
    await malls.drop('a');
    expect(await total()).toBe(1);
    await lamp('c', 'c one');
    expect(await total()).toBe(2);
    expect(await total({ store_id: 'c' })).toBe(1);
  });

  it('loads a fixture of 40,000 categories completely', async () => {
    const malls = await open({ newMall: 'empty' });
    const categories = Array.from({ length: 40_000 }, (_, i) =>
      i % 100 === 0
        ? { $id: `top-${i}`, category_name: `Top ${i}` }
        : { category_name: `Child ${i}`, parent_category_no: { $ref: `top-${i - (i % 100)}` } },
    );
    expect(await malls.loadFixture('big', { categories })).toMatchObject({
      ok: true,
      counts: { categories: 40_000 },
    });
    const [top] = bodyOf(
      await malls.handle(admin('listCategories', 'big', { query: { category_depth: 1, limit: 1 } })),
    ).categories as Body[];
    const children = bodyOf(
      await malls.handle(
        admin('listCategories', 'big', { query: { parent_category_no: top?.category_no, limit: 100 } }),
      ),
    ).categories as Body[];
    expect(children.map((c) => c.display_order)).toEqual(Array.from({ length: 99 }, (_, i) => i + 1));
  });

  it('snapshots only malls that exist, creating none', async () => {
    const malls = await open({ newMall: 'empty' });
    expect(await malls.snapshot('never-used')).toBeUndefined();
    expect(await malls.mallIds()).toEqual([]);
  });

  it('drops a mall with its records: the next use starts it afresh', async () => {
    const malls = await open({ newMall: 'empty' });
    await createCategory(malls, 'gone', 'Temporary');
    await createCategory(malls, 'kept', 'Stays');
    expect(await malls.drop('gone')).toBe(true);
    expect(await malls.drop('gone')).toBe(false);
    expect(await malls.mallIds()).toEqual(['kept']);
    expect(await count(malls, 'gone')).toBe(0);
    expect(await count(malls, 'kept')).toBe(1);
  });

  it('dates records by each mall’s own clock', async () => {
    const clocks: Record<string, number> = {
      early: Date.parse('2026-01-05T09:00:00+09:00'),
      late: Date.parse('2026-09-05T09:00:00+09:00'),
    };
    const malls = await open({ newMall: 'empty', clockFor: (mallId) => () => clocks[mallId] ?? 0 });
    const create = async (mallId: string) =>
      bodyOf(
        await malls.handle(
          admin('createProduct', mallId, {
            body: { request: { product_name: 'Clocked', supply_price: '1.00', display: 'T' } },
          }),
        ),
      ).product as Body;
    const early = await create('early');
    expect(early.created_date).toBe('2026-01-05T09:00:00+09:00');
    expect((await create('late')).created_date).toBe('2026-09-05T09:00:00+09:00');
    clocks.early = Date.parse('2026-01-06T10:30:00+09:00');
    const updated = bodyOf(
      await malls.handle(
        admin('updateProduct', 'early', {
          path: { product_no: early.product_no },
          body: { request: { price: '5.00' } },
        }),
      ),
    ).product as Body;
    expect(updated.updated_date).toBe('2026-01-06T10:30:00+09:00');
    const sales = async (mallId: string, day: string) =>
      bodyOf(
        await malls.handle({
          api: 'analytics',
          operationId: 'listProductViews',
          path: {},
          query: { mall_id: mallId, start_date: day, end_date: day, limit: 1000 },
          body: undefined,
          mallId,
        }),
      ).view as Body[];
    expect(await sales('late', '2026-06-01')).toEqual([]);
    expect((await sales('late', '2026-09-05')).length).toBeGreaterThan(0);
  });

  it('keeps every mall of a data directory across a restart, and no seed over kept data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-malls-'));
    dirs.push(dataDir);
    const first = await createSandboxMalls({ storage: await openStorage({ dataDir }), newMall: 'empty' });
    await createCategory(first, 'one', 'Persisted');
    await createCategory(first, 'two', 'Also persisted');
    await first.close();
    const second = await open({ storage: await openStorage({ dataDir }), newMall: { seed: 1 } });
    expect(await second.mallIds()).toEqual(['one', 'two']);
    expect(await count(second, 'one')).toBe(1);
    expect(await count(second, 'two')).toBe(1);
    expect(await count(second, 'three')).toBeGreaterThan(10);
    await second.drop('one');
    await second.close();
    opened.splice(opened.indexOf(second), 1);
    const third = await open({ storage: await openStorage({ dataDir }), newMall: 'empty' });
    expect(await third.mallIds()).toEqual(['three', 'two']);
  });
});
