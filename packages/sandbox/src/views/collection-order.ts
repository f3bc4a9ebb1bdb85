// The order of the collection's lists: by the record attribute a query's `sort` names (names by
// locale, dates as instants, everything else as numbers), ascending or descending. Products tie by
// product number and then by store (mall id order), so one list over many malls is the same however
// it was built: sorted whole, or merged mall by mall; shops tie by store and then by shop number.

/** What the order reads of a collection product. */
interface OrderedProduct {
  readonly product_no: number;
  readonly store_id: string;
}

/** What the order reads of a collection shop. */
interface OrderedShop {
  readonly shop_no: number;
  readonly store_id: string;
}

const byStore = (a: { store_id: string }, b: { store_id: string }) =>
  a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0;

/** The comparison of two records by `sort` (`order` `asc` ascending, else descending), ties by `tie`. */
function comparator<T>(sort: string, order: string | undefined, tie: (a: T, b: T) => number) {
  const direction = order === 'asc' ? 1 : -1;
  const value = (item: T) => (item as unknown as Record<string, unknown>)[sort];
  const byName = sort.endsWith('_name');
  const byDate = sort.endsWith('_date');
  return (a: T, b: T): number => {
    const [x, y] = [value(a), value(b)];
    const difference = byName
      ? String(x).localeCompare(String(y))
      : byDate
        ? Date.parse(String(x)) - Date.parse(String(y))
        : Number(x ?? 0) - Number(y ?? 0);
    return direction * difference || tie(a, b);
  };
}

/** The comparison of two products by `sort` (`order` `asc` ascending, else descending). */
export const collectionComparator = <T extends OrderedProduct>(sort: string, order: string | undefined) =>
  comparator<T>(sort, order, (a, b) => a.product_no - b.product_no || byStore(a, b));

/** The comparison of two shops by `sort` (`order` `asc` ascending, else descending). */
export const shopComparator = <T extends OrderedShop>(sort: string, order: string | undefined) =>
  comparator<T>(sort, order, (a, b) => byStore(a, b) || a.shop_no - b.shop_no);

/** The records in the order `compare` gives (a new array; records it calls equal keep their order). */
export const sortedBy = <T>(items: readonly T[], compare: (a: T, b: T) => number): T[] =>
  [...items].sort(compare);

/** Two lists each in the order `compare` gives, merged into one in that order (ties: `left` first). */
export function mergeSorted<T>(
  left: readonly T[],
  right: readonly T[],
  compare: (a: T, b: T) => number,
): T[] {
  const merged: T[] = new Array(left.length + right.length);
  let [i, j, k] = [0, 0, 0];
  while (i < left.length && j < right.length)
    merged[k++] = compare(right[j] as T, left[i] as T) < 0 ? (right[j++] as T) : (left[i++] as T);
  while (i < left.length) merged[k++] = left[i++] as T;
  while (j < right.length) merged[k++] = right[j++] as T;
  return merged;
}
