// The admin view of the sandbox at its surface (no HTTP; moved from mock-server's sandbox-mock
// test): reads reflect writes (categories, placements, SEO, decoration images), list filters match,
// page and follow later writes, options make one variant per combination, the icon exposure period
// is kept and cleared, the mall settings (age verification, global edition) and a multi-shop mall
// sharing one catalogue hold, the integrity rules refuse a write with the field named and keep
// nothing, and the webhook setting is kept per mall beside an empty delivery log. Calls carry parameters as the front layer hands them over (converted to their schema
// types); every answered body is checked against the operation's documented success responses.
import { webhooksOf } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Refusal } from '../protocol.js';
import { type Body, closeTestMalls, mallCalls, openMall, shippedSpecs } from '../testing/test-malls.js';

afterAll(closeTestMalls);

const names = (refusal: Refusal) => refusal.violations.map((v) => v.name);

describe('options and variants', () => {
  it('sells one variant per combination of option values, embeds them, and filters by custom variant code', async () => {
    const mall = await openMall('variants');
    const code = 'QA-TEE';
    const product = await mall.createProduct({
      product_name: 'Variant Tee',
      supply_price: '5000.00',
      custom_product_code: code,
      has_option: 'T',
      options: [
        { name: 'Color', value: ['Oatmeal', 'Charcoal'] },
        { name: 'Size', value: ['S', 'M', 'L'] },
      ],
    });
    expect(product.has_option).toBe('T');
    const read = await mall.admin('getProduct', {
      path: { product_no: product.product_no },
      query: { embed: ['options', 'variants'] },
    });
    const { options, variants } = read.product;
    expect(options.options.map((o: Body) => o.option_name)).toEqual(['Color', 'Size']);
    expect(variants).toHaveLength(6);
    expect(new Set(variants.map((v: Body) => v.variant_code)).size).toBe(6);
    expect(variants[0].variant_code.startsWith(product.product_code)).toBe(true);
    expect(variants[4]).toMatchObject({
      custom_variant_code: `${code}-5`,
      options: [
        { name: 'Color', value: 'Charcoal' },
        { name: 'Size', value: 'M' },
      ],
    });
    const found = await mall.admin('listProducts', {
      query: { embed: ['variants'], custom_variant_code: [`${code}-5`] },
    });
    expect(found.products.map((p: Body) => p.product_no)).toEqual([product.product_no]);
    expect(found.products[0].variants).toHaveLength(6);
  });
});

describe('a multi-shop mall', () => {
  let mall: Awaited<ReturnType<typeof openMall>>;
  beforeAll(async () => {
    mall = await openMall('shopsmall', { newMall: { seed: 5 }, mall: { shops: 2 }, malls: ['shopsmall'] });
  });

  it('shares one catalogue between its shops; a price set in a shop stays in that shop', async () => {
    const created = await mall.createProduct({
      product_name: 'Two Shop Mug',
      supply_price: '4000.00',
      price: '10000.00',
      display: 'T',
    });
    const path = { product_no: created.product_no };
    const inShop = async (shopNo: number) =>
      (await mall.admin('getProduct', { path, query: { shop_no: shopNo } })).product;
    expect(await inShop(2)).toMatchObject({ shop_no: 2, price: '10000.00', product_name: 'Two Shop Mug' });

    const update = async (shopNo: number, request: Body) =>
      await mall.admin('updateProduct', { path, body: { shop_no: shopNo, request } });
    await update(2, { price: '12000.00' });
    await update(1, { price: '11000.00' });
    await update(2, { product_name: 'Two Shop Mug II' });
    const [one, two] = [await inShop(1), await inShop(2)];
    expect(one).toMatchObject({ shop_no: 1, price: '11000.00', product_name: 'Two Shop Mug II' });
    expect(two).toMatchObject({ shop_no: 2, price: '12000.00', product_name: 'Two Shop Mug II' });
    expect(Number(two.price_excluding_tax)).toBeGreaterThan(Number(one.price_excluding_tax));

    const listed = async (shopNo: number) =>
      (
        await mall.admin('listProducts', {
          query: { product_name: ['two shop mug'], price_min: 11500, shop_no: shopNo },
        })
      ).products;
    expect((await listed(2)).map((p: Body) => p.price)).toEqual(['12000.00']);
    expect(await listed(1)).toEqual([]);

    const collection = await mall.answered('collection', 'listStoreProducts', {
      query: { store_id: 'shopsmall', product_name: 'two shop mug' },
    });
    expect(
      collection.store_products.map((p: Body) => [p.shop_no, p.price, p.product_ukey.split('_')[1]]),
    ).toEqual([
      [1, '11000.00', '1'],
      [2, '12000.00', '2'],
    ]);
  });

  it('keeps a category setting such as use_display the same in every shop', async () => {
    const created = await mall.createCategory({ category_name: 'Shared Shelf' });
    const path = { category_no: created.category_no };
    await mall.admin('updateCategory', { path, body: { shop_no: 2, request: { use_display: 'F' } } });
    expect((await mall.admin('getCategory', { path, query: { shop_no: 1 } })).category).toMatchObject({
      shop_no: 1,
      use_display: 'F',
    });
    const inShop2 = await mall.admin('listCategories', {
      query: { shop_no: 2, category_name: 'shared shelf' },
    });
    expect(inShop2.categories.map((c: Body) => [c.shop_no, c.use_display])).toEqual([[2, 'F']]);
  });

  it("keeps each shop's own category name and display settings, and shows the default shop's until a shop sets its own", async () => {
    const parent = await mall.createCategory({ category_name: 'Knitwear' });
    const child = await mall.createCategory({
      category_name: 'Cardigans',
      parent_category_no: parent.category_no,
    });
    const inShop = async (shopNo: number, categoryNo = child.category_no) =>
      (await mall.admin('getCategory', { path: { category_no: categoryNo }, query: { shop_no: shopNo } }))
        .category;
    expect(await inShop(2)).toMatchObject({ shop_no: 2, category_name: 'Cardigans' });

    const update = async (shopNo: number, categoryNo: number, request: Body) =>
      await mall.admin('updateCategory', {
        path: { category_no: categoryNo },
        body: { shop_no: shopNo, request },
      });
    const changed = (
      await update(2, child.category_no, {
        category_name: 'Strickjacken',
        use_main: 'T',
        product_display_scope: 'A',
        product_display_type: 'A',
        product_display_key: 'N',
        product_display_sort: 'A',
        use_display: 'F',
      })
    ).category;
    await update(2, parent.category_no, { category_name: 'Strick' });
    await update(1, child.category_no, { category_name: 'Cardigans and Vests' });
    expect(changed).toMatchObject({ shop_no: 2, category_name: 'Strickjacken', use_main: 'T' });
    expect(await inShop(2)).toMatchObject({
      category_name: 'Strickjacken',
      use_main: 'T',
      product_display_key: 'N',
      use_display: 'F',
      full_category_name: { 1: 'Strick', 2: 'Strickjacken', 3: null, 4: null },
    });
    // Shop 1 keeps its own settings; use_display is the one both shops share.
    expect(await inShop(1)).toMatchObject({
      shop_no: 1,
      category_name: 'Cardigans and Vests',
      use_main: child.use_main,
      product_display_key: child.product_display_key,
      use_display: 'F',
      full_category_name: { 1: 'Knitwear', 2: 'Cardigans and Vests', 3: null, 4: null },
    });
    const listed = async (shopNo: number, name: string) =>
      (
        await mall.admin('listCategories', { query: { shop_no: shopNo, category_name: name } })
      ).categories.map((c: Body) => c.category_no);
    expect(await listed(2, 'strickjacken')).toEqual([child.category_no]);
    expect(await listed(1, 'strickjacken')).toEqual([]);
  });

  it("removes a product from a category in the shop the delete names, leaving another shop's placement", async () => {
    const category = await mall.createCategory({ category_name: 'Two Shop Shelf' });
    const product = await mall.createProduct({ product_name: 'Two Shop Scarf', supply_price: '1000.00' });
    const path = { category_no: category.category_no };
    for (const shopNo of [1, 2])
      await mall.admin('createCategoryProduct', {
        path,
        body: { shop_no: shopNo, request: { product_no: [product.product_no] } },
      });
    const placed = async (shopNo: number) =>
      (
        await mall.admin('listCategoryProducts', { path, query: { display_group: 1, shop_no: shopNo } })
      ).products.map((p: Body) => p.product_no);
    await mall.admin('deleteCategoryProduct', {
      path: { ...path, product_no: product.product_no },
      query: { shop_no: 2 },
    });
    expect(await placed(2)).toEqual([]);
    expect(await placed(1)).toEqual([product.product_no]);
  });

  it('refuses a shop the mall does not have, naming shop_no where it was given, and creates nothing', async () => {
    const before = await mall.count('countProducts');
    const write = await mall.refused('createProduct', {
      body: { shop_no: 3, request: { product_name: 'Nowhere', supply_price: '100.00' } },
    });
    expect(write.reason).toBe('invalid');
    expect(write.violations).toEqual([expect.objectContaining({ location: 'body', name: 'shop_no' })]);
    const read = await mall.refused('listCategories', { query: { shop_no: 3 } });
    expect(read.reason).toBe('invalid');
    expect(read.violations[0]).toMatchObject({ location: 'query', name: 'shop_no' });
    expect(await mall.count('countProducts')).toBe(before);
  });

  it('sells in every shop: the analytics of shop 2 have their own figures', async () => {
    const sales = async (shopNo: number) =>
      (
        await mall.answered('analytics', 'listProductSales', {
          query: { mall_id: 'shopsmall', shop_no: shopNo, start_date: '2026-03-01', end_date: '2026-03-07' },
        })
      ).sales;
    const [one, two] = [await sales(1), await sales(2)];
    expect(two.length).toBeGreaterThan(0);
    expect(two).not.toEqual(one);
  });
});

describe('icon exposure period', () => {
  it('stores the period of use_icon_exposure_term T, and clears it with F', async () => {
    const mall = await openMall('icons');
    const product = await mall.createProduct({ product_name: 'Icon Period Tee', supply_price: '100.00' });
    const path = { product_no: product.product_no };
    const update = async (request: Body) =>
      await mall.handle('admin', 'updateProduct', { path, body: { shop_no: 1, request } });
    const period = {
      use_icon_exposure_term: 'T',
      icon_exposure_begin_datetime: '2026-12-01T00:00:00+09:00',
      icon_exposure_end_datetime: '2026-12-24T23:59:59+09:00',
    };
    expect(await update(period)).toMatchObject({ ok: true, kind: 'updated' });
    expect((await mall.admin('getProduct', { path })).product.icon_show_period).toEqual({
      start_date: '2026-12-01T00:00:00+09:00',
      end_date: '2026-12-24T23:59:59+09:00',
    });
    await update({ use_icon_exposure_term: 'F' });
    expect((await mall.admin('getProduct', { path })).product.icon_show_period).toEqual({});
  });
});

describe('mall settings', () => {
  it('refuses adult_certification T in a mall without age verification', async () => {
    const mall = await openMall('domestic');
    const refused = await mall.refused('createProduct', {
      body: {
        shop_no: 1,
        request: { product_name: 'Adult Only', supply_price: '100.00', adult_certification: 'T' },
      },
    });
    expect(refused.reason).toBe('invalid');
  });

  it('in a global-edition mall with age verification: shipping_scope must be C, no web-FTP images, adult products allowed', async () => {
    const mall = await openMall('globalmall', {
      newMall: { seed: 2 },
      mall: { globalEdition: true, ageVerification: true },
    });
    const create = (request: Body) => ({ body: { shop_no: 1, request } });
    const base = { product_name: 'Export Scarf', supply_price: '900.00' };
    expect(names(await mall.refused('createProduct', create(base)))).toContain('request.shipping_scope');
    const exportOnly = {
      ...base,
      shipping_fee_by_product: 'T',
      shipping_scope: 'C',
      hscode: '6214100000',
      clearance_category_code: 'SCARF001',
      adult_certification: 'T',
    };
    const ftp = await mall.refused('createProduct', create({ ...exportOnly, image_upload_type: 'C' }));
    expect(names(ftp)).toEqual(['request.image_upload_type']);
    const before = await mall.count('countProducts');
    expect((await mall.admin('createProduct', create(exportOnly))).product.shipping_scope).toBe('C');
    expect(await mall.count('countProducts')).toBe(before + 1);
    const seeded = await mall.admin('listProducts', { query: { limit: 5, fields: ['shipping_scope'] } });
    expect(seeded.products.map((p: Body) => p.shipping_scope)).toEqual(['C', 'C', 'C', 'C', 'C']);
  });
});

describe('integrity rules', () => {
  let mall: Awaited<ReturnType<typeof openMall>>;
  beforeAll(async () => {
    mall = await openMall('integrity');
  });

  it('refuses a category deeper than four levels naming parent_category_no, and an unknown parent as not found', async () => {
    let parent = await mall.createCategory({ category_name: 'D1' });
    for (const name of ['D2', 'D3', 'D4'])
      parent = await mall.createCategory({ category_name: name, parent_category_no: parent.category_no });
    const before = await mall.count('countCategories');
    const deep = await mall.refused('createCategory', {
      body: { request: { category_name: 'D5', parent_category_no: parent.category_no } },
    });
    expect(deep.reason).toBe('invalid');
    expect(deep.violations[0]?.name).toBe('request.parent_category_no');
    const unknown = await mall.refused('createCategory', {
      body: { request: { category_name: 'X', parent_category_no: 999999 } },
    });
    expect(unknown.reason).toBe('not-found');
    expect(await mall.count('countCategories')).toBe(before);
  });

  it('relates only existing products, naming the element, and a deleted product leaves the relations', async () => {
    const lamp = await mall.createProduct({ product_name: 'Desk Lamp', supply_price: '1000.00' });
    const before = await mall.count('countProducts');
    const related = (product_no: number) => [{ product_no, interrelated: 'T' }];
    const refused = await mall.refused('createProduct', {
      body: {
        request: { product_name: 'Shade', supply_price: '500.00', relational_product: related(999999) },
      },
    });
    expect(refused.reason).toBe('invalid');
    expect(names(refused)).toEqual(['request.relational_product/0/product_no']);
    expect(await mall.count('countProducts')).toBe(before);
    const shade = await mall.createProduct({
      product_name: 'Shade',
      supply_price: '500.00',
      relational_product: related(lamp.product_no),
    });
    const itself = await mall.refused('updateProduct', {
      path: { product_no: shade.product_no },
      body: { request: { relational_product: related(shade.product_no) } },
    });
    expect(names(itself)).toEqual(['request.relational_product/0/product_no']);
    await mall.admin('deleteProduct', { path: { product_no: lamp.product_no } });
    const read = (await mall.admin('getProduct', { path: { product_no: shade.product_no } })).product;
    expect(read.relational_product).toEqual([]);
  });

  it('refuses a bundle with a missing component, naming its product_no, and creates nothing', async () => {
    const part = await mall.createProduct({
      product_name: 'Bundle Part',
      supply_price: '1000.00',
      price: '2000.00',
    });
    const before = await mall.count('countProducts');
    const bundle = (name: string, components: Body[]) => ({
      body: {
        shop_no: 1,
        request: {
          product_name: name,
          bundle_product_components: components,
          bundle_product_sales: { discount_value: '10.00', discount_type: 'P' },
        },
      },
    });
    const refused = await mall.refused(
      'createBundleProduct',
      bundle('Broken Set', [
        { product_no: part.product_no, purchase_quantity: 1 },
        { product_no: 999999, purchase_quantity: 1 },
      ]),
    );
    expect(refused.reason).toBe('invalid');
    expect(names(refused)).toEqual(['request.bundle_product_components/1/product_no']);
    expect(await mall.count('countProducts')).toBe(before);
    const made = await mall.handle(
      'admin',
      'createBundleProduct',
      bundle('Good Set', [{ product_no: part.product_no, purchase_quantity: 2 }]),
    );
    expect(made).toMatchObject({
      ok: true,
      kind: 'created',
      body: { bundleproduct: { bundle_product_sales: { set_product_price: '3600.00' } } },
    });
    const deletePart = await mall.refused('deleteProduct', { path: { product_no: part.product_no } });
    expect(deletePart.reason).toBe('invalid');
  });

  it('needs an existing category and product for a placement: not found, invalid, and partly applied', async () => {
    const category = await mall.createCategory({ category_name: 'Placements' });
    const product = await mall.createProduct({ product_name: 'Placed', supply_price: '1.00', display: 'T' });
    const place = (categoryNo: number, numbers: number[]) => ({
      path: { category_no: categoryNo },
      body: { request: { product_no: numbers } },
    });
    expect((await mall.refused('createCategoryProduct', place(999999, [product.product_no]))).reason).toBe(
      'not-found',
    );
    const noProduct = await mall.refused('createCategoryProduct', place(category.category_no, [999999]));
    expect(noProduct.reason).toBe('invalid');
    expect(noProduct.violations[0]?.name).toBe('request.product_no/0');
    const partial = await mall.handle(
      'admin',
      'createCategoryProduct',
      place(category.category_no, [product.product_no, 999999]),
    );
    expect(partial).toMatchObject({
      ok: true,
      kind: 'partly-applied',
      body: { product: { product_no: [product.product_no] } },
    });
    expect(
      partial.ok && partial.kind === 'partly-applied' && partial.items.map((item) => item.refused?.reason),
    ).toEqual([undefined, 'invalid']);
    expect(
      await mall.count('countCategoryProducts', {
        path: { category_no: category.category_no },
        query: { display_group: 1 },
      }),
    ).toBe(1);
  });

  it('adds to a main display group partly: the existing products, each item’s outcome in request order', async () => {
    const product = await mall.createProduct({
      product_name: 'Featured',
      supply_price: '1.00',
      display: 'T',
    });
    const main = { display_group: 2 };
    const before = await mall.count('countMainProducts', { path: main });
    const partial = await mall.handle('admin', 'createMainProduct', {
      path: main,
      body: { request: { product_no: [999998, product.product_no] } },
    });
    expect(partial).toMatchObject({
      ok: true,
      kind: 'partly-applied',
      body: { product: { product_no: [product.product_no] } },
      items: [
        {
          index: 0,
          product_no: 999998,
          refused: { reason: 'invalid', message: 'product 999998 does not exist' },
        },
        { index: 1, product_no: product.product_no },
      ],
    });
    expect(partial.ok && partial.kind === 'partly-applied' && partial.items[1]).not.toHaveProperty('refused');
    expect(await mall.count('countMainProducts', { path: main })).toBe(before + 1);
  });

  it('removes the placements of a deleted category, and its sub-categories', async () => {
    const category = await mall.createCategory({ category_name: 'Doomed' });
    const sub = await mall.createCategory({
      category_name: 'Doomed Sub',
      parent_category_no: category.category_no,
    });
    const product = await mall.createProduct({
      product_name: 'Orphan',
      supply_price: '1.00',
      add_category_no: [{ category_no: category.category_no, recommend: 'T' }],
    });
    expect(product.category).toEqual([{ category_no: category.category_no, recommend: 'T', new: 'F' }]);
    expect(
      await mall.handle('admin', 'deleteCategory', { path: { category_no: category.category_no } }),
    ).toMatchObject({
      ok: true,
      kind: 'deleted',
    });
    expect((await mall.refused('getCategory', { path: { category_no: sub.category_no } })).reason).toBe(
      'not-found',
    );
    expect(
      (await mall.admin('getProduct', { path: { product_no: product.product_no } })).product.category,
    ).toEqual([]);
    expect(await mall.count('countProducts', { query: { category: category.category_no } })).toBe(0);
  });

  it('does not show display-F products in the recommended and new sections', async () => {
    const category = await mall.createCategory({ category_name: 'Sections' });
    const hidden = await mall.createProduct({ product_name: 'Hidden', supply_price: '1.00', display: 'F' });
    const shown = await mall.createProduct({ product_name: 'Shown', supply_price: '1.00', display: 'T' });
    await mall.admin('createCategoryProduct', {
      path: { category_no: category.category_no },
      body: { request: { display_group: 2, product_no: [hidden.product_no, shown.product_no] } },
    });
    const section = async (group: number) =>
      (
        await mall.admin('listCategoryProducts', {
          path: { category_no: category.category_no },
          query: { display_group: group },
        })
      ).products.map((p: Body) => p.product_no);
    expect(await section(2)).toEqual([shown.product_no]);
    expect(await section(1)).toEqual([hidden.product_no, shown.product_no]);
  });

  it('moves a placement to a sequence and pins main-group products', async () => {
    const category = await mall.createCategory({ category_name: 'Order' });
    const numbers = await Promise.all(
      ['O1', 'O2', 'O3'].map(
        async (name) =>
          (await mall.createProduct({ product_name: name, supply_price: '1.00', display: 'T' }))
            .product_no as number,
      ),
    );
    const path = { category_no: category.category_no };
    await mall.admin('createCategoryProduct', { path, body: { request: { product_no: numbers } } });
    const moved = await mall.admin('updateCategoryProduct', {
      path,
      body: {
        shop_no: 1,
        request: { display_group: 1, product_no: numbers[2], sequence: 1, fixed_sort: 'T' },
      },
    });
    expect(moved.product).toMatchObject({ sequence: 1, fixed_sort: 'T' });
    const listed = await mall.admin('listCategoryProducts', { path, query: { display_group: 1 } });
    expect(listed.products.map((p: Body) => p.product_no)).toEqual([numbers[2], numbers[0], numbers[1]]);
    const main = { display_group: 3 };
    expect(
      await mall.handle('admin', 'createMainProduct', {
        path: main,
        body: { request: { product_no: numbers } },
      }),
    ).toMatchObject({ ok: true, kind: 'created' });
    expect(
      await mall.handle('admin', 'updateMainProduct', {
        path: main,
        body: { request: { product_no: [numbers[1], numbers[0]], fix_product_no: [numbers[1]] } },
      }),
    ).toMatchObject({ ok: true, kind: 'updated' });
    const mains = await mall.admin('listMainProducts', { path: main });
    expect(mains.products.map((p: Body) => [p.product_no, p.fixed_sort])).toEqual([
      [numbers[1], true],
      [numbers[0], false],
      [numbers[2], false],
    ]);
    expect(
      (await mall.refused('updateMainProduct', { path: main, body: { request: { product_no: [999999] } } }))
        .reason,
    ).toBe('invalid');
    expect((await mall.refused('listMainProducts', { path: { display_group: 99 } })).reason).toBe(
      'not-found',
    );
  });
});

describe('reads reflect writes', () => {
  let mall: Awaited<ReturnType<typeof openMall>>;
  beforeAll(async () => {
    mall = await openMall('reads');
  });

  it('creates a category, adds products to it and reads it back', async () => {
    const root = await mall.createCategory({ category_name: 'Knitwear' });
    const child = await mall.createCategory({
      category_name: 'Cardigans',
      parent_category_no: root.category_no,
    });
    expect(child).toMatchObject({
      category_depth: 2,
      parent_category_no: root.category_no,
      root_category_no: root.category_no,
      full_category_name: { 1: 'Knitwear', 2: 'Cardigans', 3: null, 4: null },
      full_category_no: { 1: String(root.category_no), 2: String(child.category_no), 3: null, 4: null },
    });
    const [a, b] = (await Promise.all(
      [
        ['Wool Cardigan', '42000.00', '89000.00'],
        ['Cotton Cardigan', '20000.00', '49000.00'],
      ].map(
        async ([name, supply, price]) =>
          (await mall.createProduct({
            product_name: name,
            supply_price: supply,
            price,
            display: 'T',
            selling: 'T',
          })) as Body,
      ),
    )) as [Body, Body];
    const path = { category_no: child.category_no };
    const placed = await mall.handle('admin', 'createCategoryProduct', {
      path,
      body: { shop_no: 1, request: { display_group: 1, product_no: [a.product_no, b.product_no] } },
    });
    expect(placed).toMatchObject({
      ok: true,
      kind: 'created',
      body: { product: { product_no: [a.product_no, b.product_no] } },
    });
    const listed = await mall.admin('listCategoryProducts', { path, query: { display_group: 1 } });
    expect(listed.products.map((p: Body) => p.product_no)).toEqual([a.product_no, b.product_no]);
    expect(listed.products.map((p: Body) => p.sequence_no)).toEqual([1, 2]);
    expect(await mall.count('countCategoryProducts', { path, query: { display_group: 1 } })).toBe(2);
    expect((await mall.admin('getCategory', { path })).category.category_name).toBe('Cardigans');
    expect((await mall.admin('getProduct', { path: { product_no: a.product_no } })).product.category).toEqual(
      [{ category_no: child.category_no, recommend: 'F', new: 'F' }],
    );
    const filtered = await mall.admin('listProducts', {
      query: { category: root.category_no, include_sub_category: 'T' },
    });
    expect(filtered.products.map((p: Body) => p.product_no).sort()).toEqual(
      [a.product_no, b.product_no].sort(),
    );
  });

  it('keeps full_category_name of sub-categories in step with a renamed parent', async () => {
    const root = await mall.createCategory({ category_name: 'Outdoor' });
    const child = await mall.createCategory({ category_name: 'Tents', parent_category_no: root.category_no });
    const grandchild = await mall.createCategory({
      category_name: 'Family Tents',
      parent_category_no: child.category_no,
    });
    const renamed = await mall.handle('admin', 'updateCategory', {
      path: { category_no: root.category_no },
      body: { shop_no: 1, request: { category_name: 'Camping' } },
    });
    expect(renamed).toMatchObject({ ok: true, kind: 'updated' });
    expect(
      (await mall.admin('getCategory', { path: { category_no: grandchild.category_no } })).category
        .full_category_name,
    ).toEqual({ 1: 'Camping', 2: 'Tents', 3: 'Family Tents', 4: null });
  });

  it('updates and reads back decoration images and SEO', async () => {
    const path = { category_no: (await mall.createCategory({ category_name: 'Lamps' })).category_no };
    const seo = await mall.handle('admin', 'updateCategorySeo', {
      path,
      body: { shop_no: 1, request: { search_engine_exposure: 'T', meta_title: 'Lamps | Sandbox' } },
    });
    expect(seo).toMatchObject({ ok: true, kind: 'updated' });
    expect((await mall.admin('listCategorySeo', { path })).seo).toMatchObject({
      search_engine_exposure: 'T',
      meta_title: 'Lamps | Sandbox',
    });
    const images = await mall.handle('admin', 'updateCategoryDecorationImages', {
      path,
      body: { shop_no: 1, request: { use_top_image_pc: 'T', top_images_pc: ['https://example.com/a.jpg'] } },
    });
    expect(images).toMatchObject({ ok: true, kind: 'updated' });
    expect((await mall.admin('listCategoryDecorationImages', { path })).decorationimage).toMatchObject({
      use_top_image_pc: 'T',
      top_images_pc: ['https://example.com/a.jpg'],
    });
  });
});

describe('list filters of the seed', () => {
  let mall: Awaited<ReturnType<typeof openMall>>;
  beforeAll(async () => {
    mall = await openMall('lists');
  });

  it('matches category names as case-insensitive substrings, by depth and parent, and pages', async () => {
    const root = await mall.createCategory({ category_name: 'Filter Root' });
    for (const name of ['Blue Mugs', 'blue plates', 'Red Mugs'])
      await mall.createCategory({ category_name: name, parent_category_no: root.category_no });
    const parent = { parent_category_no: root.category_no };
    const blue = await mall.admin('listCategories', { query: { ...parent, category_name: 'BLUE' } });
    expect(blue.categories.map((c: Body) => c.category_name)).toEqual(['Blue Mugs', 'blue plates']);
    expect(await mall.count('countCategories', { query: { ...parent, category_depth: 2 } })).toBe(3);
    const page = await mall.admin('listCategories', {
      query: { ...parent, limit: 1, offset: 1, fields: ['category_name'] },
    });
    expect(page.categories).toEqual([{ category_no: expect.any(Number), category_name: 'blue plates' }]);
  });

  it('filters products by several numbers, a price range, display, any of several names and creation dates; sorts; trims to fields with embeds', async () => {
    const made = await Promise.all(
      (
        [
          ['Range Alpha', '1000.00', 'T'],
          ['Range Beta', '2000.00', 'F'],
          ['Range Gamma', '3000.00', 'T'],
        ] as const
      ).map(
        async ([product_name, price, display]) =>
          await mall.createProduct({ product_name, supply_price: '500.00', price, display, selling: 'T' }),
      ),
    );
    const product_no = made.map((p) => p.product_no as number);
    const byList = await mall.admin('listProducts', {
      query: { product_no, price_min: 1500, price_max: 3000, sort: 'product_name', order: 'desc' },
    });
    expect(byList.products.map((p: Body) => p.product_name)).toEqual(['Range Gamma', 'Range Beta']);
    expect(await mall.count('countProducts', { query: { product_no, display: 'T' } })).toBe(2);
    expect(
      await mall.count('countProducts', { query: { product_name: ['range alpha', 'RANGE GAMMA'] } }),
    ).toBe(2);
    // Created today, on the Korean calendar.
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    const dated = { product_no, created_start_date: today, created_end_date: today };
    expect(await mall.count('countProducts', { query: dated })).toBe(3);
    expect(await mall.count('countProducts', { query: { product_no, created_end_date: '2020-01-01' } })).toBe(
      0,
    );
    const trimmed = await mall.admin('listProducts', {
      query: { product_no, fields: ['price'], embed: ['discountprice'] },
    });
    expect(Object.keys(trimmed.products[0]).sort()).toEqual(['discountprice', 'price', 'product_no']);
  });

  it('pages a filtered, sorted list without gaps, and the list follows later writes', async () => {
    const tag = 'Follow';
    for (const letter of ['C', 'A', 'E', 'B', 'D'])
      await mall.createProduct({ product_name: `${tag} ${letter}`, supply_price: '100.00', price: '100.00' });
    const names = async (query: Body) =>
      (
        await mall.admin('listProducts', {
          query: { product_name: [tag], sort: 'product_name', order: 'desc', ...query },
        })
      ).products.map((p: Body) => p.product_name.slice(-1));
    expect([
      ...(await names({ limit: 2 })),
      ...(await names({ limit: 2, offset: 2 })),
      ...(await names({ limit: 2, offset: 4 })),
    ]).toEqual(['E', 'D', 'C', 'B', 'A']);
    const one = async (letter: string) =>
      (await mall.admin('listProducts', { query: { product_name: [`${tag} ${letter}`] } }))
        .products[0] as Body;
    await mall.admin('updateProduct', {
      path: { product_no: (await one('A')).product_no },
      body: { shop_no: 1, request: { product_name: `${tag} F` } },
    });
    expect(
      await mall.handle('admin', 'deleteProduct', { path: { product_no: (await one('C')).product_no } }),
    ).toMatchObject({
      ok: true,
      kind: 'deleted',
    });
    await mall.createProduct({ product_name: `${tag} 0`, supply_price: '100.00', price: '100.00' });
    expect(await names({ limit: 10 })).toEqual(['F', 'E', 'D', 'B', '0']);
    expect(await mall.count('countProducts', { query: { product_name: [tag] } })).toBe(5);
  });
});

describe('embedded resources', () => {
  it('repeat how the collection API shows each product: discount prices, benefits and page views', async () => {
    const mall = await openMall('embeds', { newMall: { seed: 7 }, malls: ['embeds'] });
    const admin = (
      await mall.admin('listProducts', {
        query: { embed: ['discountprice', 'benefits', 'hits', 'memos', 'decorationimages'], limit: 100 },
      })
    ).products as Body[];
    const collection = new Map(
      (
        (await (
          await mall.answered('collection', 'listStoreProducts', {
            query: { store_id: 'embeds', limit: 100 },
          })
        ).store_products) as Body[]
      )
        .filter((p) => p.shop_no === 1)
        .map((p) => [p.product_no, p]),
    );
    const compared = admin.filter((p) => collection.has(p.product_no));
    expect(compared.length).toBeGreaterThan(5);
    for (const product of compared) {
      const sold = collection.get(product.product_no) as Body;
      expect(product.discountprice).toEqual({
        pc_discount_price: sold.pc_discount_price,
        mobile_discount_price: sold.mobile_discount_price,
      });
      expect(product.hits).toEqual({ count: sold.hits_count });
      const types = product.benefits.map((b: Body) => b.benefit_type);
      expect(types.includes('DP')).toBe(sold.is_pc_discount || sold.is_mobile_discount);
      expect(types.includes('PG')).toBe(sold.is_free_gift);
      expect(product.memos).toEqual([]);
      expect(product.decorationimages).toEqual([]);
    }
    // The seeded products differ: some with benefits and some without, page views of their own.
    expect(new Set(compared.map((p) => p.benefits.length)).size).toBeGreaterThan(1);
    expect(new Set(compared.map((p) => p.hits.count)).size).toBeGreaterThan(1);
  });
});

describe('webhook setting and delivery log', () => {
  it('starts with reception on and the scopes the spec’s events need; an update is kept per mall', async () => {
    const mall = await openMall('webhook-setting');
    const other = mallCalls(mall.malls, 'webhook-other', await shippedSpecs());
    const needed = new Set(webhooksOf((await shippedSpecs()).admin.document).map((e) => e.requiredScope));
    const before = (await mall.admin('getWebhookSetting')).webhook;
    expect(before.reception_status).toBe('T');
    expect(new Set(before.scopes)).toEqual(needed);
    expect(before.scopes).toContain('mall.read_product');

    const turned = await mall.handle('admin', 'updateWebhookSetting', {
      body: { request: { reception_status: 'F' } },
    });
    expect(turned).toMatchObject({ ok: true, kind: 'updated', body: { webhook: { reception_status: 'F' } } });
    expect((await mall.admin('getWebhookSetting')).webhook.reception_status).toBe('F');
    expect((await other.admin('getWebhookSetting')).webhook.reception_status).toBe('T');

    await mall.handle('admin', 'updateWebhookSetting', { body: { request: { reception_status: 'T' } } });
    expect((await mall.admin('getWebhookSetting')).webhook.reception_status).toBe('T');
  });

  it('logs no delivery until an event is delivered: a write only puts its event in the outbox', async () => {
    const mall = await openMall('webhook-log');
    await mall.createProduct({ product_name: 'Logged Lamp', supply_price: '1000.00' });
    expect(await mall.admin('listWebhookLogs', { query: { success: 'F' } })).toEqual({ logs: [] });
    expect(await mall.admin('listWebhookLogs')).toEqual({ logs: [] });
  });
});
