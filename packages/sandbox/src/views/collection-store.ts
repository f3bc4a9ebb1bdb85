// One sandbox mall as a store of the curated collection (`store_id` = the mall id): its displayed
// products as collection records, once per shop, with category codes derived from the mall's tree
// and the attributes admin records lack drawn per store, shop and product (collection-profile.ts).
// Records, sorted views and counts are kept until the mall's next write.
import type { Catalogue } from '../catalogue/catalogue.js';
import type { CategoryRecord } from '../catalogue/category-service.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { derivedFrom } from '../support/derived.js';
import { cached, memo } from '../support/memo.js';
import type { RecentValues } from '../support/recent-values.js';
import { inSlices } from '../support/time-slice.js';
import { collectionComparator, sortedBy } from './collection-order.js';
import { collectionProfiles } from './collection-profile.js';
import { countMatches } from './list-query.js';

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

/** Dresses a mall's product as a collection record, with its store's and its own drawn attributes. */
function recordMaker(storeId: string, template: Record<string, unknown>, shapes: RecordShapes) {
  const profiles = collectionProfiles(shapes);
  const shopOf = memo((shopNo: number) => profiles.shop(storeId, shopNo));
  return (product: ProductRecord, codes: string[]) => {
    const price = String(product.price ?? '0.00');
    const shop = shopOf(product.shop_no);
    return {
      ...template,
      shop_grade: shop.shop_grade,
      shop_language: shop.shop_language,
      shop_currency_code: shop.shop_currency_code,
      ...profiles.product(storeId, product, price),
      collection_product_category: {
        depth1: codes[0] as string,
        ...(codes[1] ? { depth2: codes[1] } : {}),
        ...(codes[2] ? { depth3: codes[2] } : {}),
      },
      product_ukey: `${storeId}_${product.shop_no}_${product.product_no}`,
      shop_name: shop.shop_name as string,
      store_id: storeId,
      shop_no: product.shop_no,
      product_name: product.product_name,
      product_no: product.product_no,
      product_code: product.product_code,
      product_url: `${storeId}.example.com/product/detail.html?product_no=${product.product_no}&utm_source=collection_gmp`,
      product_status_type: product.selling === 'T' ? 'N' : 'S',
      price,
      created_date: product.created_date,
      updated_date: product.updated_date,
    };
  };
}

/** Distinct count queries kept per mall between writes (more start the cache over). */
const countsKept = 256;

/**
 * The collection store of one mall, its records made from the collection's example product record
 * in `shapes`; its records are kept while among the `recent` views.
 */
export function createCollectionStore(
  storeId: string,
  catalogue: Catalogue,
  shapes: RecordShapes,
  recent?: RecentValues,
) {
  const { store, products, categories } = catalogue;
  const dress = recordMaker(storeId, shapes.template('ProductsPage'), shapes);
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
      return cached(sortedViews, `${sort}|${order}`, () =>
        sortedBy(records, collectionComparator(sort, order)),
      );
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
    /**
     * How many displayed products `matches` accepts, kept per `key` (the query it stands for) until
     * the next write, so a count over many malls reads one number from each unchanged mall.
     */
    count(key: string, matches: (product: CollectionProduct) => boolean): number {
      const kept = counts();
      if (kept.size >= countsKept && !kept.has(key)) kept.clear();
      return cached(kept, key, () => countMatches(views()(undefined, undefined), matches));
    },
    shops: products.settings.shops,
    /** The displayed products as collection records, in the order asked, until the next write. */
    products: (sort: string | undefined, order: string | undefined): readonly CollectionProduct[] =>
      views()(sort, order),
    /**
     * Builds the records in time slices ahead of the first query (a mall's store that nothing else
     * writes meanwhile: a staged one), so that query does not build them all at once.
     */
    async prepare(): Promise<void> {
      const records: CollectionProduct[] = [];
      await dressAll(
        (indexes, each) => inSlices(indexes, each),
        (record) => records.push(record),
      );
      views.prime(viewsOf(records));
    },
  };
}

/** One mall as a store of the collection (see {@link createCollectionStore}). */
export type CollectionStore = ReturnType<typeof createCollectionStore>;
