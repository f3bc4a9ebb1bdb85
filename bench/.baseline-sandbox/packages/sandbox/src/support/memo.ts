// Per-argument memoization for the sandbox's views: a function computed once for each distinct
// argument, so lookups inside a list view (category codes, page URLs) cost one map read.

/** `build`, computed once per argument (equal arguments share one result). */
export function memo<K, V>(build: (key: K) => V): (key: K) => V {
  const built = new Map<K, V>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key);
      built.set(key, value);
    }
    return value;
  };
}
