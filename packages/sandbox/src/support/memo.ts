// Per-argument memoization for the sandbox's views: a function computed once for each distinct
// argument, so lookups inside a list view (category codes, page URLs) cost one map read.

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

/** `build`, computed once per argument (equal arguments share one result). */
export function memo<K, V>(build: (key: K) => V): (key: K) => V {
  const built = new Map<K, V>();
  return (key) => cached(built, key, () => build(key));
}
