// The order of the collection's product lists: by the record attribute a query's `sort` names
// (names by locale, dates as instants, everything else as numbers), ascending or descending, ties
// by product number and then by store (mall id order), so one list over many malls is the same
// however it was built: sorted whole, or merged mall by mall.

/** What the order reads of a collection record. */
interface Ordered {
  readonly product_no: number;
  readonly store_id: string;
}

/** The comparison of two records by `sort` (`order` `asc` ascending, else descending). */
export function collectionComparator<T extends Ordered>(sort: string, order: string | undefined) {
  const direction = order === 'asc' ? 1 : -1;
  const value = (item: T) => (item as unknown as Record<string, unknown>)[sort];
  return (a: T, b: T): number => {
    const [x, y] = [value(a), value(b)];
    const difference =
      sort === 'product_name'
        ? String(x).localeCompare(String(y))
        : sort.endsWith('_date')
          ? Date.parse(String(x)) - Date.parse(String(y))
          : Number(x ?? 0) - Number(y ?? 0);
    return (
      direction * difference ||
      a.product_no - b.product_no ||
      (a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0)
    );
  };
}

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
