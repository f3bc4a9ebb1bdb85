// The collection API over the sandbox malls: each mall is one store of the curated collection
// (`store_id` = the mall id) with one shop per shop of the mall. A mall's displayed products
// appear as the collection lists them, with collection category codes derived from the mall's
// category tree; `/api/products` and its count cover every mall (narrowed by `store_id`), mall
// by mall in mall-id order unless sorted; `/api/storeproducts` the malls its `store_id` names;
// `/api/shops` the shops of every mall; a list sorts by the spec's default key and order when the
// query names none. Names match as case-insensitive substrings, numbers,
// prices and dates as the seed describes, with paging and sorting; a query parameter with an enum
// of values that names a product attribute (read from the spec) selects by that attribute. Queries
// over every mall go through the cross-mall index (cross-mall-index.ts). Attributes the sandbox
// does not model come from the spec's examples.
import type { operations } from '@mall-api/collection-client';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { CategoryRecord } from '../catalogue/category-service.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { found } from '../sandbox-result.js';
import { derivedFrom } from '../support/derived.js';
import { parseBound } from '../support/kst-time.js';
import { memo } from '../support/memo.js';
import type { RecentValues } from '../support/recent-values.js';
import { inSlices } from '../support/time-slice.js';
import { collectionComparator, sortedBy } from './collection-order.js';
import { type CollectionIndex, createCrossMallIndex } from './cross-mall-index.js';
import type { HandlerMap } from './handler-types.js';
import { countMatches, type ListWindow, page, pageOfMatches } from './list-query.js';

/** The collection operations of the generated types. */
export type CollectionOperations = operations;

/**
 * The collection category codes of the admin categories, in the form the spec's examples show
 * (`C100000`, `C100200`, `C100210`): department k is `C{k}00000`, its section j `C{k}00{j}00` and
 * that section's sub-section m `C{k}00{j}{m}0` (k, j, m from 1 to 9, in number order). Returns a
 * lookup by category number, computed once per category tree.
 */
export function collectionCodes(categories: readonly CategoryRecord[]): (categoryNo: number) => string[] {
  const byNo = new Map(categories.map((c) => [c.category_no, c]));
  const rank = new Map<number, number>();
  const siblingsSeen = new Map<string, number>();
  for (const c of [...categories].sort((a, b) => a.category_no - b.category_no)) {
    const siblings = `${c.parent_category_no}|${c.category_depth}`;
    const position = (siblingsSeen.get(siblings) ?? 0) + 1;
    siblingsSeen.set(siblings, position);
    rank.set(c.category_no, position);
  }
  return memo((categoryNo: number): string[] => {
    const chain: CategoryRecord[] = [];
    for (let c = byNo.get(categoryNo); c && chain.length < 4; c = byNo.get(c.parent_category_no))
      chain.unshift(c);
    const [k, j, m] = chain.slice(0, 3).map((c) => Math.min(rank.get(c.category_no) ?? 1, 9));
    if (k === undefined) return [];
    return [
      `C${k}00000`,
      ...(j === undefined ? [] : [`C${k}00${j}00`]),
      ...(j === undefined || m === undefined ? [] : [`C${k}00${j}${m}0`]),
    ];
  });
}

/** A collection product with the category codes it matches. */
export type CollectionProduct = ReturnType<ReturnType<typeof recordMaker>> & { codes: string[] };

/** Dresses a mall's product as a collection record. */
function recordMaker(storeId: string, template: Record<string, unknown>) {
  return (product: ProductRecord, codes: string[]) => {
    const price = String(product.price ?? '0.00');
    return {
      ...template,
      collection_product_category: {
        depth1: codes[0] as string,
        ...(codes[1] ? { depth2: codes[1] } : {}),
        ...(codes[2] ? { depth3: codes[2] } : {}),
      },
      product_ukey: `${storeId}_${product.shop_no}_${product.product_no}`,
      shop_name: 'Sandbox Mall',
      store_id: storeId,
      shop_no: product.shop_no,
      product_name: product.product_name,
      product_no: product.product_no,
      product_code: product.product_code,
      product_url: `${storeId}.example.com/product/detail.html?product_no=${product.product_no}&utm_source=collection_gmp`,
      product_status_type: product.selling === 'T' ? 'N' : 'S',
      price,
      pc_discount_price: price,
      mobile_discount_price: price,
      is_pc_discount: false,
      is_mobile_discount: false,
      pc_discount_rate: 0,
      mobile_discount_rate: 0,
      created_date: product.created_date,
      updated_date: product.updated_date,
    };
  };
}

/** One mall as a store of the collection. */
export interface CollectionStore {
  readonly storeId: string;
  readonly shops: number;
  /** The displayed products as collection records, in the order asked, until the next write. */
  products(sort: string | undefined, order: string | undefined): readonly CollectionProduct[];
  /**
   * How many displayed products `matches` accepts, kept per `key` (the query it stands for) until
   * the next write, so a count over many malls reads one number from each unchanged mall.
   */
  count(key: string, matches: (product: CollectionProduct) => boolean): number;
  /**
   * Builds the records in time slices ahead of the first query (a mall's store that nothing else
   * writes meanwhile: a staged one), so that query does not build them all at once.
   */
  prepare(): Promise<void>;
}

/** Distinct count queries kept per mall between writes (more start the cache over). */
const countsKept = 256;

/**
 * The collection store of one mall; `template` is the collection's example product record; its
 * records are kept while among the `recent` views.
 */
export function createCollectionStore(
  storeId: string,
  catalogue: Catalogue,
  template: Record<string, unknown>,
  recent?: RecentValues,
): CollectionStore {
  const { store, products, categories } = catalogue;
  const dress = recordMaker(storeId, template);
  /**
   * Calls `each` with the mall's displayed products as collection records, in number order: a
   * product once per shop of the mall, at that shop's price (every shop's view lists the products
   * in the same order), calling `each` product by product through `loop`.
   */
  const dressAll = <R>(
    loop: (indexes: number[], each: (index: number) => void) => R,
    each: (record: CollectionProduct) => void,
  ): R => {
    const codesOf = collectionCodes(categories.all());
    const shops = Array.from({ length: products.settings.shops }, (_, index) =>
      products.ordered(false, undefined, false, index + 1),
    );
    const indexes = Array.from({ length: shops[0]?.length ?? 0 }, (_, index) => index);
    return loop(indexes, (index) => {
      for (const view of shops) {
        const p = view[index] as ProductRecord;
        if (p.display !== 'T') continue;
        const first = Array.isArray(p.category) ? (p.category[0] as { category_no: number }) : undefined;
        const found = first ? codesOf(first.category_no) : [];
        // Products outside every category appear under the catch-all department C900000.
        const codes = found.length > 0 ? found : ['C900000'];
        each({ ...dress(p, codes), codes });
      }
    });
  };
  /** The views over the records: as they are, or sorted (each order sorted once, on first use). */
  const viewsOf = (records: readonly CollectionProduct[]) => {
    const sortedViews = new Map<string, CollectionProduct[]>();
    return (sort: string | undefined, order: string | undefined): readonly CollectionProduct[] => {
      if (!sort) return records;
      const key = `${sort}|${order}`;
      let view = sortedViews.get(key);
      if (!view) {
        view = sortedBy(records, collectionComparator(sort, order));
        sortedViews.set(key, view);
      }
      return view;
    };
  };
  const views = derivedFrom(
    store,
    ['product', 'category'],
    () => {
      const records: CollectionProduct[] = [];
      dressAll(
        (indexes, each) => indexes.forEach(each),
        (record) => records.push(record),
      );
      return viewsOf(records);
    },
    recent,
  );
  const counts = derivedFrom(store, ['product', 'category'], () => new Map<string, number>());
  return {
    storeId,
    count(key, matches) {
      const kept = counts();
      let count = kept.get(key);
      if (count === undefined) {
        count = countMatches(views()(undefined, undefined), matches);
        if (kept.size >= countsKept) kept.clear();
        kept.set(key, count);
      }
      return count;
    },
    shops: products.settings.shops,
    products: (sort, order) => views()(sort, order),
    async prepare() {
      const records: CollectionProduct[] = [];
      await dressAll(
        (indexes, each) => inSlices(indexes, each),
        (record) => records.push(record),
      );
      views.prime(viewsOf(records));
    },
  };
}

/** The product filters of the collection's product lists. */
interface ProductQuery extends ListWindow {
  readonly collection_product_category?: readonly string[];
  readonly product_name?: readonly string[] | string;
  readonly product_no?: readonly number[];
  readonly shop_no?: readonly number[];
  readonly price_min?: number;
  readonly price_max?: number;
  readonly created_start_date?: string;
  readonly created_end_date?: string;
  readonly sort?: string;
  readonly order?: string;
}

/**
 * Whether a product matches the query; `equalAttributes`: the query parameters that select a
 * product attribute of the same name by value (one, or any of a list).
 */
function productMatcher(query: ProductQuery, requireCategory: boolean, equalAttributes: readonly string[]) {
  const wanted = query.collection_product_category;
  const name = query.product_name;
  const names = (typeof name === 'string' ? [name] : name)?.map((n) => n.toLowerCase());
  const { product_no: numbers, shop_no: shops, price_min: min, price_max: max } = query;
  const { created_start_date: start, created_end_date: end } = query;
  const from = start === undefined ? undefined : parseBound(start, false);
  const to = end === undefined ? undefined : parseBound(end, true);
  return (p: CollectionProduct) =>
    (!requireCategory || !wanted || p.codes.some((code) => wanted.includes(code))) &&
    equalAttributes.every((name) => hasAttribute(p, name, (query as Record<string, unknown>)[name])) &&
    (!names || names.some((n) => p.product_name.toLowerCase().includes(n))) &&
    (!numbers || numbers.includes(p.product_no)) &&
    (!shops || shops.includes(p.shop_no)) &&
    (min === undefined || Number(p.price) >= min) &&
    (max === undefined || Number(p.price) <= max) &&
    (from === undefined || Date.parse(p.created_date) >= from) &&
    (to === undefined || Date.parse(p.created_date) <= to);
}

/** Whether a record's attribute is the value asked for, or one of them (true when none is asked). */
function hasAttribute(record: object, name: string, wanted: unknown): boolean {
  if (wanted === undefined) return true;
  const actual = (record as Record<string, unknown>)[name];
  return (Array.isArray(wanted) ? wanted : [wanted]).some((item) => String(item) === String(actual));
}

/** The products of the named stores in the order asked: one store's view, or the stores' views merged. */
function productsOf(stores: readonly CollectionStore[], sort?: string, order?: string) {
  if (stores.length === 1) return (stores[0] as CollectionStore).products(sort, order);
  const all = stores.flatMap((s) => s.products(undefined, undefined));
  return sort ? sortedBy(all, collectionComparator(sort, order)) : all;
}

const strip = ({ codes: _codes, ...record }: CollectionProduct) => record;

/** The query without its window and order: what selects the products (the key of kept counts). */
const selection = ({ offset: _o, limit: _l, sort: _s, order: _r, ...filters }: ProductQuery) =>
  JSON.stringify(filters);

/**
 * The collection handlers over the stores `stores()` lists (one per mall, in mall-id order); with
 * an `index`, queries over every mall go through the cross-mall index.
 */
export function createCollectionView(
  stores: () => readonly CollectionStore[],
  shapes: RecordShapes,
  index?: CollectionIndex,
): HandlerMap<CollectionOperations> {
  const shopTemplate = shapes.template('ShopsPage');
  const overMalls = index && createCrossMallIndex(stores, index);
  /** The query parameters of an operation that select a product attribute by value. */
  const equalAttributes = memo((operationId: string) => shapes.enumFilters(operationId, 'Product'));
  const matcherOf = (operationId: string, query: ProductQuery, requireCategory: boolean) =>
    productMatcher(query, requireCategory, equalAttributes(operationId));
  // The platform's standard tags are not mall data: every mall lists the documented ones.
  const standardTags = shapes.records('StandardTagsPage');
  const storesNamed = (ids: readonly string[] | string | undefined) => {
    const wanted = typeof ids === 'string' ? [ids] : ids;
    return stores().filter((s) => !wanted || wanted.includes(s.storeId));
  };
  /** The query with the sort key and order the spec defaults to when it names none. */
  const withDefaultOrder = <Q extends { sort?: string; order?: string }>(
    operationId: string,
    query: Q,
  ): Q => {
    const sort = query.sort ?? shapes.queryDefault(operationId, 'sort');
    const order = query.order ?? shapes.queryDefault(operationId, 'order');
    return {
      ...query,
      ...(typeof sort === 'string' ? { sort } : {}),
      ...(typeof order === 'string' ? { order } : {}),
    };
  };
  const list = (
    operationId: string,
    query: ProductQuery & { readonly store_id?: readonly string[] | string },
    requireCategory: boolean,
  ) => {
    const matches = matcherOf(operationId, query, requireCategory);
    const found =
      query.store_id === undefined && overMalls
        ? overMalls.page(`${operationId}|${selection(query)}`, matches, query, 10)
        : pageOfMatches(productsOf(storesNamed(query.store_id), query.sort, query.order), matches, query, 10);
    return found.map(strip);
  };
  const shopsOf = (store: CollectionStore) =>
    Array.from({ length: store.shops }, (_, index) => ({
      ...shopTemplate,
      store_id: store.storeId,
      shop_no: index + 1,
      shop_name: 'Sandbox Mall',
      shop_url: `https://${store.storeId}.example.com`,
    }));
  return {
    listProducts: ({ query }) => found({ products: list('listProducts', query, true) }),
    countProducts: ({ query }) => {
      const matches = matcherOf('countProducts', query, true);
      const key = `countProducts|${selection(query)}`;
      if (query.store_id !== undefined || !overMalls)
        return found({
          count: storesNamed(query.store_id).reduce((sum, s) => sum + s.count(key, matches), 0),
        });
      return found({ count: overMalls.count(key, matches) });
    },
    listStoreProducts: ({ query }) =>
      found({
        store_products: list('listStoreProducts', withDefaultOrder('listStoreProducts', query), false),
      }),
    listShops: ({ query }) => {
      const shops = storesNamed(query.store_id)
        .flatMap(shopsOf)
        .filter((shop) => !query.shop_no || query.shop_no.includes(shop.shop_no))
        .filter(
          (shop) => !query.shop_properties || query.shop_properties.some((item) => hasProperty(shop, item)),
        )
        .filter((shop) => matchesAttributes(shop, query));
      return found({ shops: page(shops, query, 10) });
    },
    listStandardTags: ({ query }) => found({ standardtags: page(standardTags, query, 10) }),
  };
}

/**
 * Whether a shop has the property an `<attribute>:<value>` item of `shop_properties` names: the
 * attribute equals the value or, for a list attribute, contains it (the front layer has refused
 * attributes the spec's `x-filter` does not list).
 */
function hasProperty(shop: Readonly<Record<string, unknown>>, item: string): boolean {
  const at = item.indexOf(':');
  const value = item.slice(at + 1);
  const actual = shop[item.slice(0, at)];
  if (actual === undefined || actual === null) return false;
  return Array.isArray(actual) ? actual.map(String).includes(value) : String(actual) === value;
}

/** Fields of a shop that `listShops` filters by on their own, beside `shop_properties`. */
const ownShopFilters = new Set(['store_id', 'shop_no', 'shop_properties']);

/**
 * Whether a shop matches every other query parameter named after one of its attributes (filters
 * combine with AND; the items of a list parameter with OR), as the operation describes.
 */
function matchesAttributes(shop: Readonly<Record<string, unknown>>, query: object): boolean {
  return Object.entries(query).every(([name, wanted]) => {
    if (ownShopFilters.has(name) || !(name in shop) || wanted === undefined) return true;
    const items: unknown[] = Array.isArray(wanted) ? wanted : [wanted];
    return items.some((item) => hasProperty(shop, `${name}:${String(item)}`));
  });
}
