// The collection API over the sandbox malls: each mall is one store of the curated collection
// (`store_id` = the mall id) with one shop per shop of the mall. A mall's displayed products
// appear as the collection lists them, with collection category codes derived from the mall's
// category tree; `/api/products` and its count cover every mall (narrowed by `store_id`), mall
// by mall in mall-id order unless sorted; `/api/storeproducts` the malls its `store_id` names;
// `/api/shops` the shops of every mall; a list sorts by the spec's default key and order when the
// query names none. Names match as case-insensitive substrings, numbers,
// prices and dates as the seed describes, with paging and sorting. Attributes the sandbox does not
// model come from the spec's examples.
import type { Catalogue } from '../catalogue/catalogue.js';
import type { CategoryRecord } from '../catalogue/category-service.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import type { operations } from '../generated/collection.js';
import { answer } from '../sandbox-result.js';
import { derivedFrom } from '../store/store.js';
import { parseBound } from '../support/kst-time.js';
import { memo } from '../support/memo.js';
import type { HandlerMap } from './handler-types.js';
import { countMatches, type ListWindow, page, pageOfMatches } from './list-query.js';
import type { MallChanges } from './mall-changes.js';

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
type CollectionProduct = ReturnType<ReturnType<typeof recordMaker>> & { codes: string[] };

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
}

/** Distinct count queries kept per mall between writes (more start the cache over). */
const countsKept = 256;

/** The collection store of one mall; `template` is the collection's example product record. */
export function createCollectionStore(
  storeId: string,
  catalogue: Catalogue,
  template: Record<string, unknown>,
): CollectionStore {
  const { store, products, categories } = catalogue;
  const dress = recordMaker(storeId, template);
  const views = derivedFrom(store, ['product', 'category'], () => {
    const codesOf = collectionCodes(categories.all());
    // Each shop of the mall is a shop in the collection: a product appears once per shop, at
    // that shop's price (the views of every shop list the products in the same order).
    const shops = Array.from({ length: products.settings.shops }, (_, index) =>
      products.ordered(false, undefined, false, index + 1),
    );
    const records: CollectionProduct[] = (shops[0] ?? [])
      .flatMap((_, index) => shops.map((view) => view[index] as ProductRecord))
      .filter((p) => p.display === 'T')
      .map((p) => {
        const first = Array.isArray(p.category) ? (p.category[0] as { category_no: number }) : undefined;
        const found = first ? codesOf(first.category_no) : [];
        // Products outside every category appear under the catch-all department C900000.
        const codes = found.length > 0 ? found : ['C900000'];
        return { ...dress(p, codes), codes };
      });
    const sortedViews = new Map<string, CollectionProduct[]>();
    return (sort: string | undefined, order: string | undefined): readonly CollectionProduct[] => {
      if (!sort) return records;
      const key = `${sort}|${order}`;
      let view = sortedViews.get(key);
      if (!view) {
        view = sorted(records, sort, order === 'asc' ? 1 : -1);
        sortedViews.set(key, view);
      }
      return view;
    };
  });
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

function productMatcher(query: ProductQuery, requireCategory: boolean) {
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

/** Product attributes a query parameter of the same name selects by value (one, or any of a list). */
const equalAttributes = ['shop_language', 'shop_currency_code', 'product_status_type', 'product_popular_age'];

/** Whether a record's attribute is the value asked for, or one of them (true when none is asked). */
function hasAttribute(record: object, name: string, wanted: unknown): boolean {
  if (wanted === undefined) return true;
  const actual = (record as Record<string, unknown>)[name];
  return (Array.isArray(wanted) ? wanted : [wanted]).some((item) => String(item) === String(actual));
}

/** The products of the stores in the order asked: one store's view, or the stores' views merged. */
function productsOf(stores: readonly CollectionStore[], sort?: string, order?: string) {
  if (stores.length === 1) return (stores[0] as CollectionStore).products(sort, order);
  const all = stores.flatMap((s) => s.products(undefined, undefined));
  return sort ? sorted(all, sort, order === 'asc' ? 1 : -1) : all;
}

const strip = ({ codes: _codes, ...record }: CollectionProduct) => record;

/** What the collection knows of the malls' changes, to keep counts over every mall current. */
export interface CollectionIndex {
  readonly changes: MallChanges;
  /** The collection store of a mall, undefined once it is dropped. */
  storeOf(storeId: string): CollectionStore | undefined;
}

/** A count over every mall: the total, each mall's part, and the change it is current to. */
interface CountOverMalls {
  total: number;
  readonly parts: Map<string, number>;
  position: number;
}

/**
 * The collection handlers over the stores `stores()` lists (one per mall, in mall-id order); with
 * an `index`, a count over every mall recounts only the malls changed since it was last asked.
 */
export function createCollectionView(
  stores: () => readonly CollectionStore[],
  shapes: RecordShapes,
  index?: CollectionIndex,
): HandlerMap<CollectionOperations> {
  const shopTemplate = shapes.template('ShopsPage');
  const overMalls = new Map<string, CountOverMalls>();
  /** A count over every mall, brought up to date by recounting the malls changed since. */
  const countOverMalls = (
    key: string,
    matches: (product: CollectionProduct) => boolean,
    { changes, storeOf }: CollectionIndex,
  ): number => {
    const kept = overMalls.get(key);
    const changed = kept && changes.since(kept.position);
    if (kept && changed) {
      for (const storeId of changed) {
        const part = storeOf(storeId)?.count(key, matches) ?? 0;
        kept.total += part - (kept.parts.get(storeId) ?? 0);
        if (part === 0) kept.parts.delete(storeId);
        else kept.parts.set(storeId, part);
      }
      kept.position = changes.position();
      return kept.total;
    }
    const fresh: CountOverMalls = { total: 0, parts: new Map(), position: changes.position() };
    for (const store of stores()) {
      const part = store.count(key, matches);
      fresh.total += part;
      if (part > 0) fresh.parts.set(store.storeId, part);
    }
    if (overMalls.size >= countsKept) overMalls.clear();
    overMalls.set(key, fresh);
    return fresh.total;
  };
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
  const list = (selected: readonly CollectionStore[], query: ProductQuery, requireCategory: boolean) =>
    pageOfMatches(
      productsOf(selected, query.sort, query.order),
      productMatcher(query, requireCategory),
      query,
      10,
    ).map(strip);
  const shopsOf = (store: CollectionStore) =>
    Array.from({ length: store.shops }, (_, index) => ({
      ...shopTemplate,
      store_id: store.storeId,
      shop_no: index + 1,
      shop_name: 'Sandbox Mall',
      shop_url: `https://${store.storeId}.example.com`,
    }));
  return {
    listProducts: ({ query }) => answer({ products: list(storesNamed(query.store_id), query, true) }),
    countProducts: ({ query }) => {
      const matches = productMatcher(query, true);
      const key = JSON.stringify(query);
      if (query.store_id !== undefined || !index)
        return answer({
          count: storesNamed(query.store_id).reduce((sum, s) => sum + s.count(key, matches), 0),
        });
      return answer({ count: countOverMalls(key, matches, index) });
    },
    listStoreProducts: ({ query }) =>
      answer({
        store_products: list(
          storesNamed(query.store_id),
          withDefaultOrder('listStoreProducts', query),
          false,
        ),
      }),
    listShops: ({ query }) => {
      const shops = storesNamed(query.store_id)
        .flatMap(shopsOf)
        .filter((shop) => !query.shop_no || query.shop_no.includes(shop.shop_no))
        .filter(
          (shop) => !query.shop_properties || query.shop_properties.some((item) => hasProperty(shop, item)),
        )
        .filter((shop) => matchesAttributes(shop, query));
      return answer({ shops: page(shops, query, 10) });
    },
    listStandardTags: ({ query }) => answer({ standardtags: page(standardTags, query, 10) }),
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

/** Collection records by `sort` (`direction` 1 ascending, -1 descending), ties by number; a new array. */
function sorted<T extends { product_no: number }>(items: readonly T[], sort: string, direction: number): T[] {
  const value = (item: T) => (item as Record<string, unknown>)[sort];
  return [...items].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const difference =
      sort === 'product_name'
        ? String(x).localeCompare(String(y))
        : sort.endsWith('_date')
          ? Date.parse(String(x)) - Date.parse(String(y))
          : Number(x ?? 0) - Number(y ?? 0);
    return direction * difference || a.product_no - b.product_no;
  });
}
