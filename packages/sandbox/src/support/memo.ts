// Per-argument memoization for the sandbox's views: a function computed once for each distinct
// argument, so lookups inside a list view (category codes, page URLs) cost one map read. Where the
// arguments come from callers (a tester's seeds), a capacity keeps only the latest used.

/** The value of `key` in `cache`, built and kept there on first use. */
export function cached<K, V>(
  cache: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  build: () => V,
): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    cache.set(key, value);
  }
  return value;
}

/**
 * `build`, computed once per argument (equal arguments share one result).
 * @param capacity how many results are kept: past it, the least recently used is built again when
 *   asked for (unbounded when not given, for arguments from a bounded set).
 */
export function memo<K, V>(build: (key: K) => V, capacity = Number.POSITIVE_INFINITY): (key: K) => V {
  const built = new Map<K, V>();
  if (capacity === Number.POSITIVE_INFINITY) return (key) => cached(built, key, () => build(key));
  return (key) => {
    const value = built.get(key) ?? build(key);
    built.delete(key);
    built.set(key, value);
    if (built.size > capacity) built.delete(built.keys().next().value as K);
    return value;
  };
}
