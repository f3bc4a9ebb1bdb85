// The analytics sandbox's simulation, through the handlers of a seeded sandbox (no HTTP): every
// operation of the spec answers with bodies valid against the spec and unlike its examples; the same query
// gives the same answer (cached or not) and another mall other figures, refused to this mall's
// credential; the sums agree across
// endpoints (orders, visits, page views, product views, cart additions, ad and keyword sales);
// PC plus mobile is the total; every sort key, order, limit and offset of the spec is honoured;
// products take part from their creation day on and leave past days unchanged; a year is simulated
// afresh over a year.
import { type Json, loadSpec, type OperationEntry, type SpecModel } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxMalls, type SandboxMalls } from '../malls/sandbox-malls.js';
import { simulateDay } from './simulated-day.js';

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely; their schema is checked by Ajv
type Body = Record<string, any>;
type Query = Record<string, unknown>;

const mall = 'simmall';
const twoWeeks = { mall_id: mall, start_date: '2026-03-01', end_date: '2026-03-14' };
/** The keyword search ads of the simulation (the ads whose keywords the keyword reports list). */
const searchAds = ['Naver Search Ads', 'Google Ads', 'Daum Clicks'];

let sandbox: SandboxMalls;
let model: SpecModel;
let operations: readonly OperationEntry[];

/** The body of an analytics operation's sandbox answer. */
async function ask(operationId: string, query: Query = {}, on: SandboxMalls = sandbox): Promise<Body> {
  const reply = await on.handle({
    api: 'analytics',
    operationId,
    path: {},
    query: { ...twoWeeks, ...query },
    body: undefined,
    mallId: mall,
  });
  expect(reply).toMatchObject({ ok: true, kind: 'found' });
  return (reply as { body: Body }).body;
}
/** The records of an answer (every analytics body has one key). */
const rows = async (operationId: string, query: Query = {}, on: SandboxMalls = sandbox): Promise<Body[]> =>
  Object.values(await ask(operationId, { limit: 1000, ...query }, on))[0] as Body[];
/** The body of an admin operation's answer in the simulated mall. */
const admin = async (operationId: string, path: Query): Promise<Body> => {
  const reply = await sandbox.handle({
    api: 'admin',
    operationId,
    path,
    query: {},
    body: undefined,
    mallId: mall,
  });
  return (reply as { body: Body }).body;
};
const total = (records: Body[], field: string) => records.reduce((sum, row) => sum + Number(row[field]), 0);
const operation = (operationId: string) => {
  const found = operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
};
const parameterSchema = (operationId: string, name: string): Body | undefined => {
  const parameter = operation(operationId).parameters.find((p) => p.name === name);
  return parameter && model.resolve(parameter.schema);
};
/** Orders rows the way the spec's sort keys mean: amounts and rates as numbers, text by code unit. */
const compare = (x: unknown, y: unknown) => {
  const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v));
  if (numeric(x) && numeric(y)) return Number(x) - Number(y);
  const [s, t] = [String(x), String(y)];
  return s < t ? -1 : s > t ? 1 : 0;
};

beforeAll(async () => {
  sandbox = await createSandboxMalls({ newMall: { seed: 7 } });
  model = await loadSpec('analytics');
  operations = model.operations;
});
afterAll(() => sandbox.close());

describe('the simulation', () => {
  it('simulates equal visits for the same mall, shop, day and products, and others for another mall or day', () => {
    const product = {
      shopNo: 1,
      productNo: 10,
      name: 'Linen Shirt',
      code: 'P000000A',
      price: 39000,
      selling: true,
      categories: [24],
      availableFrom: '2026-01-01',
      keyword: 'linen shirt',
    };
    const day = simulateDay('a', 1, '2026-03-01', [product]);
    expect(day.length).toBeGreaterThan(50);
    expect(simulateDay('a', 1, '2026-03-01', [product])).toEqual(day);
    expect(simulateDay('b', 1, '2026-03-01', [product])).not.toEqual(day);
    expect(simulateDay('a', 1, '2026-03-02', [product])).not.toEqual(day);
    expect(simulateDay('a', 1, '2026-03-01', [{ ...product, availableFrom: '2026-03-02' }])).toEqual([]);
    expect(simulateDay('a', 2, '2026-03-01', [product])).toEqual([]);
    const orders = day.flatMap((visit) => (visit.order ? [visit.order] : []));
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.map((o) => o.id)).toEqual(
      orders.map((_, i) => `20260301-${String(i + 1).padStart(7, '0')}`),
    );
    expect([...orders.map((o) => o.date)].sort()).toEqual(orders.map((o) => o.date));
    for (const order of orders) expect(order.amount).toBe(39000 * order.quantity);
  });
});

describe('every analytics operation in sandbox mode', () => {
  it('all answer with a body valid against the spec, with records, unlike the static examples', async () => {
    expect(operations.length).toBeGreaterThan(1);
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.filter((operationId) => !sandbox.handles('analytics', operationId))).toEqual([]);
    for (const { operationId, responses } of operations) {
      const response = model.resolve(responses['200'] as Json);
      const content = (response.content as Body)['application/json'];
      const validate = model.schemas().compile(content.schema);
      const body = await ask(operationId, { limit: 1000 });
      if (!validate(body)) throw new Error(`${operationId}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      const records = Object.values(body)[0] as Body[];
      expect(records.length, operationId).toBeGreaterThan(0);
      for (const example of Object.values(content.examples as Body))
        expect(body, operationId).not.toEqual(model.resolve(example as Json).value);
    }
  });

  it('answer a repeated query identically, and a long range (not cached) as its days (cached)', async () => {
    for (const { operationId } of operations) expect(await ask(operationId)).toEqual(await ask(operationId));
    const fresh = await createSandboxMalls({ newMall: { seed: 7 } });
    try {
      const year = { start_date: '2026-01-01', end_date: '2026-12-31' };
      const uncached = await rows('listVisitorViews', year, fresh);
      const week = await rows(
        'listVisitorViews',
        { start_date: '2026-03-01', end_date: '2026-03-07' },
        fresh,
      );
      expect(week).toHaveLength(7);
      expect(uncached.filter((r) => r.date >= '2026-03-01' && r.date < '2026-03-08')).toEqual(week);
      expect(await rows('listVisitorViews', year, fresh)).toEqual(uncached);
      expect(await rows('listProductSales', year, fresh)).toEqual(await rows('listProductSales', year));
    } finally {
      await fresh.close();
    }
  });

  it('give another mall other figures, and refuse one mall’s statistics to another’s credential', async () => {
    const asMall = (mallId: string, operationId: string, mall_id: string) =>
      sandbox.handle({
        api: 'analytics',
        operationId,
        path: {},
        query: { ...twoWeeks, mall_id },
        body: undefined,
        mallId,
      });
    for (const operationId of ['listProductSales', 'listVisitorViews', 'listAdSales', 'listViewedPages']) {
      const other = await asMall('othermall', operationId, 'othermall');
      expect(other, operationId).toMatchObject({ ok: true, kind: 'found' });
      expect((other as { body: Body }).body, operationId).not.toEqual(await ask(operationId));
      for (const asked of ['othermall', 'no-such-mall'])
        expect(await asMall(mall, operationId, asked), operationId).toMatchObject({
          ok: false,
          reason: 'forbidden',
          violations: [{ location: 'query', name: 'mall_id' }],
        });
    }
  });
});

describe('sums across endpoints', () => {
  it('count the same orders and revenue by product, payment method, hour, member status, domain and order', async () => {
    const sales = await rows('listProductSales');
    const orders = total(sales, 'order_count');
    const amount = total(sales, 'order_amount');
    expect(orders).toBeGreaterThan(50);
    for (const [operationId, count, sum] of [
      ['listPaymentMethodSales', 'order_count', 'order_amount'],
      ['listHourlySales', 'order_count', 'order_amount'],
      ['listReferringDomainSales', 'order_count', 'order_amount'],
    ] as const) {
      expect(total(await rows(operationId), count), operationId).toBe(orders);
      expect(total(await rows(operationId), sum), operationId).toBe(amount);
    }
    const details = await rows('listOrderDetails');
    expect(details).toHaveLength(orders);
    expect(total(details, 'order_amount')).toBe(amount);
    const [members] = await rows('listMemberSales');
    expect(members?.member_order_count + members?.nonmember_order_count).toBe(orders);
    expect(members?.member_order_amount + members?.nonmember_order_amount).toBe(amount);
    const hours = await rows('listHourlySales');
    expect(total(await rows('listPaymentMethodSales'), 'buyers_count')).toBeGreaterThanOrEqual(
      Math.max(...hours.map((h) => h.buyers_count)),
    );
    const visits = total(await rows('listVisitorViews'), 'visit_count');
    const buyers = new Set(details.map((d) => d.order_date.slice(0, 10))).size; // at least one per day
    const [perVisitor] = await rows('listSalesPerVisitor');
    expect(Number(perVisitor?.order_amount_per_visitor)).toBeCloseTo(amount / visits, 2);
    expect(Number(perVisitor?.order_amount_per_buyer)).toBeGreaterThanOrEqual(amount / orders - 0.005);
    expect(amount / Number(perVisitor?.order_amount_per_buyer)).toBeGreaterThanOrEqual(buyers);
    expect(amount / Number(perVisitor?.order_amount_per_buyer)).toBeLessThanOrEqual(orders + 0.5);
  });

  it('make ad, ad-keyword and keyword sales the ad-attributed share of the orders', async () => {
    const details = await rows('listOrderDetails');
    const grouped = (key: (d: Body) => string) => {
      const groups = new Map<string, { orders: number; amount: number }>();
      for (const d of details.filter((r) => r.ad !== '채널 없음')) {
        const group = groups.get(key(d)) ?? { orders: 0, amount: 0 };
        groups.set(key(d), { orders: group.orders + 1, amount: group.amount + d.order_amount });
      }
      return groups;
    };
    const byAd = Object.fromEntries(
      (await rows('listAdSales')).map((r) => [r.ad, { orders: r.order_count, amount: r.order_amount }]),
    );
    expect(byAd).toEqual(Object.fromEntries(grouped((d) => d.ad)));
    const adKeywords = await rows('listAdKeywordSales');
    expect(
      Object.fromEntries(
        adKeywords.map((r) => [`${r.ad}|${r.keyword}`, { orders: r.order_count, amount: r.order_amount }]),
      ),
    ).toEqual(Object.fromEntries(grouped((d) => `${d.ad}|${d.keyword}`)));
    const effect = await rows('listAdEffectDetails');
    expect(total(effect, 'purchase_count')).toBe(total(adKeywords, 'order_count'));
    expect(total(effect, 'order_amount')).toBe(total(adKeywords, 'order_amount'));
    const searchSales = (await rows('listAdSales')).filter((r) => searchAds.includes(r.ad));
    for (const operationId of ['listKeywordSales', 'listKeywordDetails']) {
      const records = await rows(operationId);
      const count = operationId === 'listKeywordSales' ? 'order_count' : 'purchase_count';
      expect(total(records, count), operationId).toBe(total(searchSales, 'order_count'));
      expect(total(records, 'order_amount'), operationId).toBe(total(searchSales, 'order_amount'));
    }
    for (const row of effect) {
      expect(Number(row.purchase_rate)).toBeCloseTo((row.purchase_count * 100) / row.visit_count, 2);
      expect(Number(row.order_amount_per_visitor)).toBeCloseTo(row.order_amount / row.visit_count, 2);
    }
  });

  it('count the same visits by day, hour, ad medium and referring domain; referring URLs, users and unique visitors within them', async () => {
    const daily = await rows('listVisitorViews');
    const visits = total(daily, 'visit_count');
    expect(daily).toHaveLength(14);
    expect(total(await rows('listVisitorViews', { format_type: 'hour' }), 'visit_count')).toBe(visits);
    const hourly = await rows('listVisitorViews', {
      format_type: 'hour',
      start_date: '2026-03-05',
      end_date: '2026-03-05',
    });
    const march5 = daily.find((d) => d.date === '2026-03-05T00:00:00+09:00');
    expect(total(hourly, 'visit_count')).toBe(march5?.visit_count);
    expect(total(hourly, 'first_visit_count')).toBe(march5?.first_visit_count);
    for (const row of hourly)
      expect(row.date).toBe(`2026-03-05T${String(row.hour).padStart(2, '0')}:00:00+09:00`);
    const ads = await rows('listAdVisits');
    expect(total(ads, 'visit_count')).toBe(visits);
    const domains = await rows('listReferringDomains');
    expect(total(domains, 'visit_count')).toBe(visits);
    const direct = domains.find((d) => d.domain === '참조 도메인 없음')?.visit_count;
    expect(direct).toBeGreaterThan(0);
    expect(total(await rows('listReferringUrls'), 'visit_count')).toBe(visits - direct);
    const adVisits = visits - (ads.find((a) => a.ad === '채널 없음')?.visit_count ?? 0);
    const effect = await rows('listAdEffectDetails');
    expect(total(effect, 'visit_count')).toBe(adVisits);
    for (const row of effect) expect(Number(row.visit_rate)).toBeCloseTo((row.visit_count * 100) / visits, 2);
    const keywordVisits = total(await rows('listKeywordVisits'), 'visit_count');
    expect(keywordVisits).toBe(total(await rows('listKeywordDetails'), 'visit_count'));
    expect(keywordVisits).toBe(
      total(
        effect.filter((r) => searchAds.includes(r.ad)),
        'visit_count',
      ),
    );
    const users = await rows('listDailyActiveUsers');
    const unique = await rows('listUniqueVisitors');
    daily.forEach((day, i) => {
      expect(users[i]?.date).toBe(day.date);
      expect(unique[i]?.date).toBe(day.date);
      expect(day.visit_count).toBe(day.first_visit_count + day.re_visit_count);
      expect(day.first_visit_count).toBeLessThanOrEqual(users[i]?.user_count);
      expect(users[i]?.user_count).toBeLessThanOrEqual(unique[i]?.unique_visit_count);
      expect(unique[i]?.unique_visit_count).toBeLessThanOrEqual(day.visit_count);
    });
    expect(total(unique, 'unique_visit_count')).toBeGreaterThan(total(users, 'user_count'));
    expect(total(unique, 'unique_visit_count')).toBeLessThan(visits);
    expect(total(daily, 'first_visit_count')).toBeLessThan(total(users, 'user_count'));
  });

  it('count page views as the views of the pages viewed, and product views as views of product detail pages', async () => {
    const pages = await rows('listViewedPages');
    expect(pages.length).toBeLessThan(1000);
    expect(total(await rows('listPageViews'), 'page_view')).toBe(total(pages, 'count'));
    expect(total(await rows('listPageViews', { format_type: 'hour' }), 'page_view')).toBe(
      total(pages, 'count'),
    );
    for (const page of pages) expect(page.visit_count).toBeLessThanOrEqual(page.count);
    const detailViews = new Map(
      pages.flatMap((p) => {
        const match = /\/product\/detail\.html\?product_no=(\d+)$/.exec(p.url);
        return match ? [[Number(match[1]), p.count]] : [];
      }),
    );
    const views = await rows('listProductViews');
    expect(views.length).toBeGreaterThan(100);
    expect(new Map(views.map((v) => [v.product_no, v.count]))).toEqual(detailViews);
    const carts = await rows('listCartActions');
    expect(new Map(carts.map((c) => [c.product_no, c.count]))).toEqual(detailViews);
    const sales = new Map((await rows('listProductSales')).map((s) => [s.product_no, s]));
    const perCategory = await rows('listProductCategoryDetails');
    for (const cart of carts) {
      const mine = perCategory.filter((c) => c.product_no === cart.product_no);
      expect(total(mine, 'carts_count_per_category')).toBe(cart.add_cart_count);
      expect(total(mine, 'sales_count_per_category')).toBe(sales.get(cart.product_no)?.order_count ?? 0);
      expect(total(mine, 'sales_price_per_category')).toBe(sales.get(cart.product_no)?.order_amount ?? 0);
      expect(cart.add_cart_count).toBeGreaterThanOrEqual(sales.get(cart.product_no)?.order_count ?? 0);
      expect(Number(cart.add_cart_rate)).toBeCloseTo((cart.add_cart_count * 100) / cart.count, 2);
    }
  });

  it('name each product category row after the stored category, one of the product’s categories', async () => {
    const perCategory = await rows('listProductCategoryDetails');
    expect(perCategory.length).toBeGreaterThan(50);
    for (const row of perCategory) {
      const category = (await admin('getCategory', { category_no: row.category_no })).category;
      expect(row.category_name).toBe(category?.category_name);
      const product = (await admin('getProduct', { product_no: row.product_no })).product;
      expect(product?.category.map((c: Body) => c.category_no)).toContain(row.category_no);
      expect(row.product_code).toBe(product?.product_code);
    }
  });
});

describe('device_type', () => {
  const additive: Record<string, string[]> = {
    listProductSales: ['order_count', 'order_product_count', 'order_amount'],
    listProductViews: ['count'],
    listCartActions: ['count', 'add_cart_count'],
    listProductCategoryDetails: [
      'sales_count_per_category',
      'sales_item_per_category',
      'sales_price_per_category',
      'carts_count_per_category',
    ],
    listOrderDetails: ['order_amount'],
    listPaymentMethodSales: ['buyers_count', 'order_count', 'order_amount'],
    listHourlySales: ['buyers_count', 'order_count', 'order_amount'],
    listMemberSales: [
      'member_order_count',
      'member_order_amount',
      'nonmember_order_count',
      'nonmember_order_amount',
    ],
    listDailyActiveUsers: ['user_count'],
    listPageViews: ['page_view'],
    listUniqueVisitors: ['unique_visit_count'],
    listVisitorViews: ['visit_count', 'first_visit_count', 're_visit_count'],
    listViewedPages: ['count', 'visit_count', 'first_visit_count'],
    listAdVisits: ['visit_count'],
    listAdSales: ['order_count', 'order_amount'],
    listAdKeywordSales: ['order_count', 'order_amount'],
    listAdEffectDetails: ['visit_count', 'purchase_count', 'order_amount'],
    listReferringDomains: ['visit_count'],
    listReferringDomainSales: ['order_count', 'order_amount'],
    listReferringUrls: ['visit_count'],
    listKeywordVisits: ['visit_count'],
    listKeywordSales: ['order_count', 'order_amount'],
    listKeywordDetails: ['visit_count', 'purchase_count', 'order_amount'],
  };

  it('splits every count and amount into PC and mobile that add up to the total', async () => {
    // Every operation taking device_type has its additive fields listed, but the per-visitor
    // averages, which do not add up.
    const byDevice = operations.filter((operation) =>
      operation.parameters.some((parameter) => parameter.name === 'device_type'),
    );
    expect(byDevice.length).toBeGreaterThan(1);
    expect(new Set([...Object.keys(additive), 'listSalesPerVisitor'])).toEqual(
      new Set(byDevice.map((operation) => operation.operationId)),
    );
    for (const [operationId, fields] of Object.entries(additive)) {
      const [all, pc, mobile] = await Promise.all(
        ['total', 'pc', 'mobile'].map((device_type) => rows(operationId, { device_type })),
      );
      for (const field of fields) {
        const whole = total(all as Body[], field);
        expect(whole, `${operationId} ${field}`).toBeGreaterThan(0);
        expect(total(pc as Body[], field), `${operationId} ${field} pc`).toBeGreaterThan(0);
        expect(total(pc as Body[], field) + total(mobile as Body[], field), `${operationId} ${field}`).toBe(
          whole,
        );
      }
    }
    const [perVisitor] = await rows('listSalesPerVisitor', { device_type: 'pc' });
    expect(perVisitor).not.toEqual((await rows('listSalesPerVisitor'))[0]);
  });

  it('keeps the visits of the device asked for: mobile search pages refer mobile visits only', async () => {
    const domains = async (device_type: string) =>
      (await rows('listReferringDomains', { device_type })).map((r) => r.domain);
    expect(await domains('mobile')).toContain('m.search.naver.com');
    expect(await domains('mobile')).not.toContain('search.naver.com');
    expect(await domains('pc')).toContain('search.naver.com');
    expect(await domains('pc')).not.toContain('m.search.naver.com');
    const visits = async (device_type: string) =>
      total(await rows('listVisitorViews', { device_type }), 'visit_count');
    expect(await visits('mobile')).toBeGreaterThan(await visits('pc'));
  });
});

describe('sort, order, limit and offset', () => {
  const aliases: Record<string, string> = {
    order_count: 'sales_count_per_category',
    order_product_count: 'sales_item_per_category',
    order_amount: 'sales_price_per_category',
  };
  const fieldOf = (operationId: string, key: string) =>
    operationId === 'listProductCategoryDetails' ? (aliases[key] ?? key) : key;
  const expectSorted = (records: Body[], field: string, order: string, label: string) => {
    const direction = order === 'desc' ? -1 : 1;
    for (let i = 1; i < records.length; i++)
      expect(direction * compare(records[i - 1]?.[field], records[i]?.[field]), label).toBeLessThanOrEqual(0);
  };

  it('orders every list by each sort key of the spec, both ways, and by the default key and order', async () => {
    let checked = 0;
    for (const { operationId } of operations) {
      const sort = parameterSchema(operationId, 'sort');
      if (!sort) continue;
      const defaultOrder = parameterSchema(operationId, 'order')?.default as string;
      const unsorted = await rows(operationId);
      expect(unsorted.length, operationId).toBeGreaterThan(1);
      expectSorted(unsorted, fieldOf(operationId, sort.default), defaultOrder, `${operationId} default`);
      for (const key of sort.enum as string[])
        for (const order of ['asc', 'desc']) {
          const sorted = await rows(operationId, { sort: key, order });
          expect(sorted).toHaveLength(unsorted.length);
          expectSorted(sorted, fieldOf(operationId, key), order, `${operationId} ${key} ${order}`);
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(80);
    const byRate = (await rows('listCartActions', { sort: 'add_cart_rate', order: 'desc' })).map((r) =>
      Number(r.add_cart_rate),
    );
    expect(byRate).toEqual([...byRate].sort((a, b) => b - a));
  });

  it('pages by limit and offset', async () => {
    for (const operationId of ['listOrderDetails', 'listViewedPages', 'listProductSales']) {
      const all = await rows(operationId);
      expect(all.length, operationId).toBeGreaterThan(100);
      expect(Object.values(await ask(operationId))[0]).toEqual(all.slice(0, 100));
      expect(await rows(operationId, { limit: 50, offset: 50 })).toEqual(all.slice(50, 100));
      expect(await rows(operationId, { limit: 50, offset: all.length - 10 })).toEqual(all.slice(-10));
    }
  });

  it('narrows the order details to the order of orderId', async () => {
    const all = await rows('listOrderDetails');
    const chosen = all[Math.floor(all.length / 2)];
    expect(await rows('listOrderDetails', { orderId: chosen?.order_id })).toEqual([chosen]);
    expect(await rows('listOrderDetails', { orderId: '20260301-9999999' })).toEqual([]);
  });
});

describe('products over time', () => {
  it('takes a product in from its creation day on, leaves earlier days as they were, never a hidden one, and sells only one on sale', async () => {
    let now = Date.parse('2026-05-01T10:00:00+09:00');
    const own = await createSandboxMalls({ newMall: 'empty', clockFor: () => () => now });
    try {
      const create = async (request: Body) => {
        const reply = await own.handle({
          api: 'admin',
          operationId: 'createProduct',
          path: {},
          query: {},
          body: { shop_no: 1, request: { supply_price: '1000.00', selling: 'T', ...request } },
          mallId: mall,
        });
        expect(reply).toMatchObject({ ok: true, kind: 'created' });
        return ((reply as { body: Body }).body as Body).product.product_no as number;
      };
      const before = { start_date: '2026-04-20', end_date: '2026-04-30' };
      const firstDays = { start_date: '2026-05-01', end_date: '2026-05-09' };
      const later = { start_date: '2026-05-10', end_date: '2026-05-31' };
      const first = await create({ product_name: 'First Lamp', price: '20000.00', display: 'T' });
      expect(await rows('listVisitorViews', before, own)).toEqual([]);
      const productSales = await rows('listProductSales', firstDays, own);
      const visits = await rows('listVisitorViews', firstDays, own);
      expect(productSales.map((r) => r.product_no)).toEqual([first]);
      now = Date.parse('2026-05-10T09:00:00+09:00');
      const second = await create({ product_name: 'Second Lamp', price: '30000.00', display: 'T' });
      const hidden = await create({ product_name: 'Hidden Lamp', price: '30000.00', display: 'F' });
      const notForSale = await create({
        product_name: 'Window Lamp',
        price: '30000.00',
        display: 'T',
        selling: 'F',
      });
      expect(await rows('listProductSales', firstDays, own)).toEqual(productSales);
      expect(await rows('listVisitorViews', firstDays, own)).toEqual(visits);
      const viewed = (await rows('listProductViews', later, own)).map((r) => r.product_no);
      expect(viewed).toContain(second);
      expect(viewed).toContain(first);
      expect(viewed).not.toContain(hidden);
      expect(viewed).toContain(notForSale);
      expect(
        (await rows('listCartActions', later, own)).find((r) => r.product_no === notForSale)?.add_cart_count,
      ).toBe(0);
      expect((await rows('listProductSales', later, own)).map((r) => r.product_no)).not.toContain(notForSale);
      expect((await rows('listProductViews', firstDays, own)).map((r) => r.product_no)).not.toContain(second);
      const sold = (await rows('listProductSales', later, own)).find((r) => r.product_no === second);
      expect(sold?.order_amount).toBe(30000 * (sold?.order_product_count ?? Number.NaN));
    } finally {
      await own.close();
    }
  });
});

describe('a long range', () => {
  it('simulates a year afresh', async () => {
    const fresh = await createSandboxMalls({ newMall: { seed: 11 } });
    try {
      const pages = await rows(
        'listViewedPages',
        { start_date: '2026-01-01', end_date: '2026-12-31' },
        fresh,
      );
      expect(total(pages, 'count')).toBeGreaterThan(100_000);
    } finally {
      await fresh.close();
    }
  });
});
