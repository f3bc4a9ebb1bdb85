// The collection API in sandbox mode: the mall's displayed products, as the curated collection
// would list them, filtered by the seed's parameters (collection category codes derived from the
// sandbox's category tree, names as case-insensitive substrings, numbers, price and date ranges)
// with paging and sorting. Attributes the sandbox does not model come from the spec's example.
import type { CategoryRecord, CategoryService } from './category-service.js';
import type { SandboxHandlers } from './handler-types.js';
import { parseBound } from './kst-time.js';
import { commaList, page, type Query, single } from './list-query.js';
import type { ProductRecord, ProductService } from './product-service.js';

/** The store the sandbox mall appears as in the collection. */
export const sandboxStoreId = 'sandboxmall';

/**
 * The collection category codes of an admin category: department k is `C{k}00000`, its section j
 * `C{k}0{j}00` and that section's sub-section m `C{k}0{j}{m}0` (k, j, m from 1, in number order).
 */
export function collectionCodes(categories: readonly CategoryRecord[], categoryNo: number): string[] {
  const byNo = new Map(categories.map((c) => [c.category_no, c]));
  const rank = (c: CategoryRecord) =>
    categories
      .filter((s) => s.parent_category_no === c.parent_category_no && s.category_depth === c.category_depth)
      .sort((a, b) => a.category_no - b.category_no)
      .indexOf(c) + 1;
  const chain: CategoryRecord[] = [];
  for (let c = byNo.get(categoryNo); c && chain.length < 4; c = byNo.get(c.parent_category_no))
    chain.unshift(c);
  const [k, j, m] = chain.slice(0, 3).map((c) => Math.min(rank(c), 9));
  if (k === undefined) return [];
  return [
    `C${k}00000`,
    ...(j === undefined ? [] : [`C${k}0${j}00`]),
    ...(j === undefined || m === undefined ? [] : [`C${k}0${j}${m}0`]),
  ];
}

export function createCollectionHandlers(
  products: ProductService,
  categories: CategoryService,
  template: Record<string, unknown>,
): SandboxHandlers {
  const collectionRecord = (product: ProductRecord, all: CategoryRecord[]) => {
    const first = Array.isArray(product.category)
      ? (product.category[0] as { category_no: number })
      : undefined;
    const found = first ? collectionCodes(all, first.category_no) : [];
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

  const matching = (query: Query, requireCategory: boolean): CollectionProduct[] => {
    const all = categories.all();
    const wanted = commaList(query, 'collection_product_category');
    const names = commaList(query, 'product_name')?.map((n) => n.toLowerCase());
    const numbers = commaList(query, 'product_no')?.map(Number);
    const shops = commaList(query, 'shop_no')?.map(Number);
    const storeId = single(query, 'store_id');
    const [min, max] = [single(query, 'price_min'), single(query, 'price_max')];
    const [start, end] = [single(query, 'created_start_date'), single(query, 'created_end_date')];
    return products
      .all(false)
      .filter((e) => e.record.display === 'T')
      .map((e) => collectionRecord(e.record, all))
      .filter(
        (p) =>
          (!requireCategory || !wanted || p.codes.some((code) => wanted.includes(code))) &&
          (!names || names.some((n) => p.product_name.toLowerCase().includes(n))) &&
          (!numbers || numbers.includes(p.product_no)) &&
          (!shops || shops.includes(p.shop_no)) &&
          (storeId === undefined || storeId === sandboxStoreId) &&
          (min === undefined || Number(p.price) >= Number(min)) &&
          (max === undefined || Number(p.price) <= Number(max)) &&
          (start === undefined || Date.parse(p.created_date) >= parseBound(start, false)) &&
          (end === undefined || Date.parse(p.created_date) <= parseBound(end, true)),
      );
  };
  const sorted = (items: CollectionProduct[], query: Query) => {
    const sort = single(query, 'sort');
    const direction = single(query, 'order') === 'asc' ? 1 : -1;
    if (!sort) return items;
    return items.sort((a, b) => {
      const [x, y] = [(a as Record<string, unknown>)[sort], (b as Record<string, unknown>)[sort]];
      const difference =
        sort === 'product_name'
          ? String(x).localeCompare(String(y))
          : sort.endsWith('_date')
            ? Date.parse(String(x)) - Date.parse(String(y))
            : Number(x ?? 0) - Number(y ?? 0);
      return direction * difference || a.product_no - b.product_no;
    });
  };
  const strip = ({ codes: _codes, ...record }: CollectionProduct) => record;

  return {
    listProducts: ({ query }) => ({
      status: 200,
      body: { products: page(sorted(matching(query, true), query), query, 10).map(strip) },
    }),
    countProducts: ({ query }) => ({ status: 200, body: { count: matching(query, true).length } }),
    listStoreProducts: ({ query }) => ({
      status: 200,
      body: { store_products: page(sorted(matching(query, false), query), query, 10).map(strip) },
    }),
  };
}
