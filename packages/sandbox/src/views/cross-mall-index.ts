// The collection's product queries over every mall, kept so their cost follows the changes, not the
// number of malls: a count sums per-mall counts, recounting only changed malls; a page in mall order
// skips whole malls by those counts; a sorted page slices one kept list, a changed mall's products
// taken out and merged in again. Queries naming their stores read those malls directly.
import { collectionComparator, mergeSorted, sortedBy } from './collection-order.js';
import type { CollectionProduct, CollectionStore } from './collection-store.js';
import { type ListWindow, page, pageOfMatches } from './list-query.js';
import type { MallChanges } from './mall-changes.js';

/** What the collection knows of the malls' changes, to keep figures over every mall current. */
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

/** The products of every mall a query selects, in one order, and the change it is current to. */
interface SortedOverMalls {
  items: CollectionProduct[];
  position: number;
}

/** Distinct queries whose counts are kept (more start the cache over). */
const queriesKept = 256;
/** Distinct sorted queries whose lists are kept (each may list every product of every mall). */
const sortedQueriesKept = 16;

/** Creates the index over the stores `stores()` lists (one per mall, in mall-id order). */
export function createCrossMallIndex(
  stores: () => readonly CollectionStore[],
  { changes, storeOf }: CollectionIndex,
) {
  const counts = new Map<string, CountOverMalls>();
  const orders = new Map<string, SortedOverMalls>();

  /** The count over every mall of `key`, brought up to date by recounting the malls changed since. */
  const countOverMalls = (key: string, matches: (product: CollectionProduct) => boolean): CountOverMalls => {
    const kept = counts.get(key);
    const changed = kept && changes.since(kept.position);
    if (kept && changed) {
      for (const storeId of changed) {
        const part = storeOf(storeId)?.count(key, matches) ?? 0;
        kept.total += part - (kept.parts.get(storeId) ?? 0);
        if (part === 0) kept.parts.delete(storeId);
        else kept.parts.set(storeId, part);
      }
      kept.position = changes.position();
      return kept;
    }
    const fresh: CountOverMalls = { total: 0, parts: new Map(), position: changes.position() };
    for (const store of stores()) {
      const part = store.count(key, matches);
      fresh.total += part;
      if (part > 0) fresh.parts.set(store.storeId, part);
    }
    if (counts.size >= queriesKept) counts.clear();
    counts.set(key, fresh);
    return fresh;
  };

  /** The products of every mall `matches` accepts, sorted as asked, re-merged for the malls changed since. */
  const sortedOverMalls = (
    key: string,
    matches: (product: CollectionProduct) => boolean,
    sort: string,
    order: string | undefined,
  ): readonly CollectionProduct[] => {
    const sortKey = `${key}|${sort}|${order}`;
    const compare = collectionComparator<CollectionProduct>(sort, order);
    const selected = (store: CollectionStore, ordered?: boolean) =>
      store.products(ordered ? sort : undefined, ordered ? order : undefined).filter(matches);
    const kept = orders.get(sortKey);
    const changed = kept && changes.since(kept.position);
    if (kept && changed) {
      if (changed.size > 0) {
        let items = kept.items.filter((product) => !changed.has(product.store_id));
        for (const storeId of changed) {
          const store = storeOf(storeId);
          if (store) items = mergeSorted(items, selected(store, true), compare);
        }
        kept.items = items;
      }
      kept.position = changes.position();
      return kept.items;
    }
    const fresh = {
      items: sortedBy(
        stores().flatMap((store) => selected(store)),
        compare,
      ),
      position: changes.position(),
    };
    if (orders.size >= sortedQueriesKept) orders.clear();
    orders.set(sortKey, fresh);
    return fresh.items;
  };

  return {
    /** How many products of every mall `matches` accepts (`key` stands for the query). */
    count: (key: string, matches: (product: CollectionProduct) => boolean) =>
      countOverMalls(key, matches).total,
    /** One page of the products `matches` accepts, in mall order or sorted as `query` asks. */
    page(
      key: string,
      matches: (product: CollectionProduct) => boolean,
      query: ListWindow & { readonly sort?: string; readonly order?: string },
      defaultLimit: number,
    ): CollectionProduct[] {
      if (query.sort)
        return page(sortedOverMalls(key, matches, query.sort, query.order), query, defaultLimit);
      const { parts } = countOverMalls(key, matches);
      const limit = query.limit ?? defaultLimit;
      let skip = query.offset ?? 0;
      const found: CollectionProduct[] = [];
      for (const store of stores()) {
        if (found.length >= limit) break;
        const part = parts.get(store.storeId) ?? 0;
        if (skip >= part) {
          skip -= part;
          continue;
        }
        const window = { offset: skip, limit: limit - found.length };
        found.push(...pageOfMatches(store.products(undefined, undefined), matches, window, defaultLimit));
        skip = 0;
      }
      return found;
    },
  };
}
