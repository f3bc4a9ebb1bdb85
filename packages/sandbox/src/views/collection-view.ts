// The collection API over the sandbox malls, each mall one store (collection-store.ts): the product
// list and count over every mall through the cross-mall index (or the malls `store_id` names),
// `/api/storeproducts`, `/api/shops` and the standard tags. Filters apply as their `x-query`
// declares; lists sort by the spec's default unless the query names an order.
import type { operations as CollectionOperations } from '@mall-api/specs/types/collection';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { found } from '../sandbox-result.js';
import { collectionComparator, shopComparator, sortedBy } from './collection-order.js';
import { collectionProfiles } from './collection-profile.js';
import type { CollectionProduct, CollectionStore } from './collection-store.js';
import { type CollectionIndex, createCrossMallIndex } from './cross-mall-index.js';
import { declaredMatcher } from './declared-filters.js';
import type { HandlerMap } from './handler-types.js';
import { type ListWindow, page, pageOfMatches } from './list-query.js';

/** The query of the collection's product lists: what the view reads itself beside the filters. */
interface ProductQuery extends ListWindow {
  readonly store_id?: readonly string[] | string;
  readonly sort?: string;
  readonly order?: string;
}

/** The malls a collection query names (`store_id`, one or a list); undefined: every mall. */
export function storeIdsNamed(query: Readonly<Record<string, unknown>>): readonly string[] | undefined {
  const ids = query.store_id;
  if (ids === undefined) return undefined;
  return (Array.isArray(ids) ? ids : [ids]).map(String);
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
  const matcherOf = (operationId: string, query: object) =>
    declaredMatcher<Record<string, unknown>>(
      shapes.queryMeanings(operationId),
      query as Record<string, unknown>,
    );
  const profiles = collectionProfiles(shapes);
  // The platform's standard tags are not mall data: every mall lists the documented ones.
  const standardTags = shapes.records('StandardTagsPage');
  const storesNamed = (ids: readonly string[] | string | undefined) => {
    const wanted = storeIdsNamed({ store_id: ids });
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
  const list = (operationId: string, query: ProductQuery) => {
    const matches = matcherOf(operationId, query);
    const found =
      query.store_id === undefined && overMalls
        ? overMalls.page(`${operationId}|${selection(query)}`, matches, query, 10)
        : pageOfMatches(productsOf(storesNamed(query.store_id), query.sort, query.order), matches, query, 10);
    return found.map(strip);
  };
  const shopsOf = (store: CollectionStore) =>
    Array.from({ length: store.shops }, (_, index) => ({
      ...shopTemplate,
      ...profiles.shop(store.storeId, index + 1),
      store_id: store.storeId,
      shop_no: index + 1,
      shop_url: `https://${store.storeId}.example.com${index === 0 ? '' : `/shop${index + 1}`}`,
    }));
  return {
    listProducts: ({ query }) => found({ products: list('listProducts', query) }),
    countProducts: ({ query }) => {
      const matches = matcherOf('countProducts', query);
      const key = `countProducts|${selection(query)}`;
      if (query.store_id !== undefined || !overMalls)
        return found({
          count: storesNamed(query.store_id).reduce((sum, s) => sum + s.count(key, matches), 0),
        });
      return found({ count: overMalls.count(key, matches) });
    },
    listStoreProducts: ({ query }) =>
      found({
        store_products: list('listStoreProducts', withDefaultOrder('listStoreProducts', query)),
      }),
    listShops: ({ query }) => {
      const matches = matcherOf('listShops', query);
      const shops = storesNamed(query.store_id).flatMap(shopsOf).filter(matches);
      const ordered = query.sort ? sortedBy(shops, shopComparator(query.sort, query.order)) : shops;
      return found({ shops: page(ordered, query, 10) });
    },
    listStandardTags: ({ query }) => found({ standardtags: page(standardTags, query, 10) }),
  };
}
