// The collection API in sandbox mode: the mall's displayed products in each of its shops, as the
// curated collection would list them, filtered by the seed's parameters (collection category codes
// derived from the sandbox's category tree, names as case-insensitive substrings, numbers, price
// and date ranges) with paging and sorting. Attributes the sandbox does not model come from the spec's example.
import type { CategoryRecord, CategoryService } from './category-service.js';
import type { SandboxHandlers } from './handler-types.js';
import { parseBound } from './kst-time.js';
import { commaList, countMatches, pageOfMatches, type Query, single } from './list-query.js';
import { memo } from './memo.js';
import type { ProductRecord, ProductService } from './product-service.js';
import { derivedFrom, type SandboxStore } from './store.js';

/** The store the sandbox mall appears as in the collection. */
export const sandboxStoreId = 'sandboxmall';

/**
 * The collection category codes of the admin categories: department k is `C{k}00000`, its section
 * j `C{k}0{j}00` and that section's sub-section m `C{k}0{j}{m}0` (k, j, m from 1, in number
 * order). Returns a lookup by category number, computed once per category tree.
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
      ...(j === undefined ? [] : [`C${k}0${j}00`]),
      ...(j === undefined || m === undefined ? [] : [`C${k}0${j}${m}0`]),
    ];
  });
}

export function createCollectionHandlers(
  store: SandboxStore,
  products: ProductService,
  categories: CategoryService,
  template: Record<string, unknown>,
): SandboxHandlers {
  const collectionRecord = (product: ProductRecord, codesOf: (categoryNo: number) => string[]) => {
    const first = Array.isArray(product.category)
      ? (product.category[0] as { category_no: number })
      : undefined;
    const found = first ? codesOf(first.category_no) : [];
    // Products outside every category appear under the catch-all department C900000.
    const codes = found.length > 0 ? found : ['C900000'];
    const price = String(product.price ?? '0.00');
    return {
      ...template,
      collection_product_category: {
        depth1: codes[0] as string,
        ...(codes[1] ? { depth2: codes[1] } : {}),
        ...(codes[2] ? { depth3: codes[2] } : {}),
      },
      product_ukey: `${sandboxStoreId}_${product.shop_no}_${product.product_no}`,
      shop_name: 'Sandbox Mall',
      store_id: sandboxStoreId,
      shop_no: product.shop_no,
      product_name: product.product_name,
      product_no: product.product_no,
      product_code: product.product_code,
      product_url: `${sandboxStoreId}.example.com/product/detail.html?product_no=${product.product_no}&utm_source=collection_gmp`,
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
      codes,
    };
  };
  type CollectionProduct = ReturnType<typeof collectionRecord>;

  /** The displayed products as collection records, in each requested order, until the next write. */
  const views = derivedFrom(store, ['product', 'category'], () => {
    const codesOf = collectionCodes(categories.all());
    // Each shop of the mall is a shop in the collection: a product appears once per shop, at
    // that shop's price (the views of every shop list the products in the same order).
    const shops = Array.from({ length: products.settings.shops }, (_, index) =>
      products.ordered(false, undefined, false, index + 1),
    );
    const records = (shops[0] ?? [])
      .flatMap((_, index) => shops.map((view) => view[index] as ProductRecord))
      .filter((p) => p.display === 'T')
      .map((p) => collectionRecord(p, codesOf));
    const sortedViews = new Map<string, CollectionProduct[]>();
    return (query: Query): readonly CollectionProduct[] => {
      const sort = single(query, 'sort');
      if (!sort) return records;
      const direction = single(query, 'order') === 'asc' ? 1 : -1;
      const key = `${sort}|${direction}`;
      let view = sortedViews.get(key);
      if (!view) {
        view = sorted(records, sort, direction);
        sortedViews.set(key, view);
      }
      return view;
    };
  });
  const matcher = (query: Query, requireCategory: boolean) => {
    const wanted = commaList(query, 'collection_product_category');
    const names = commaList(query, 'product_name')?.map((n) => n.toLowerCase());
    const numbers = commaList(query, 'product_no')?.map(Number);
    const shops = commaList(query, 'shop_no')?.map(Number);
    const storeId = single(query, 'store_id');
    const [min, max] = [single(query, 'price_min'), single(query, 'price_max')].map((v) =>
      v === undefined ? undefined : Number(v),
    );
    const [start, end] = [single(query, 'created_start_date'), single(query, 'created_end_date')];
    const [from, to] = [
      start === undefined ? undefined : parseBound(start, false),
      end === undefined ? undefined : parseBound(end, true),
    ];
    return (p: CollectionProduct) =>
      (!requireCategory || !wanted || p.codes.some((code) => wanted.includes(code))) &&
      (!names || names.some((n) => p.product_name.toLowerCase().includes(n))) &&
      (!numbers || numbers.includes(p.product_no)) &&
      (!shops || shops.includes(p.shop_no)) &&
      (storeId === undefined || storeId === sandboxStoreId) &&
      (min === undefined || Number(p.price) >= min) &&
      (max === undefined || Number(p.price) <= max) &&
      (from === undefined || Date.parse(p.created_date) >= from) &&
      (to === undefined || Date.parse(p.created_date) <= to);
  };
  const strip = ({ codes: _codes, ...record }: CollectionProduct) => record;

  const list = (query: Query, requireCategory: boolean) =>
    pageOfMatches(views()(query), matcher(query, requireCategory), query, 10).map(strip);

  return {
    listProducts: ({ query }) => ({ status: 200, body: { products: list(query, true) } }),
    countProducts: ({ query }) => ({
      status: 200,
      body: { count: countMatches(views()({}), matcher(query, true)) },
    }),
    listStoreProducts: ({ query }) => ({ status: 200, body: { store_products: list(query, false) } }),
  };
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
