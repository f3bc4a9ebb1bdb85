// A value derived from some tables of a mall's store and computed again only after one of them
// changed (the store's table revisions say when), optionally held only while it is among the
// values used lately: how the list views and the analytics days avoid copying and sorting a table
// on every request. A cache over a store, not a store (those are `@mall-api/mall-state`'s).
import type { SandboxStore, StoreTable } from '@mall-api/mall-state';
import type { RecentValues } from './recent-values.js';

/** A value derived from some tables of a store (see {@link derivedFrom}). */
export interface Derived<T> {
  /** The value, computed again if one of its tables changed since (or it was collected). */
  (): T;
  /** Takes `value` as the one computed from the tables as they are now (built ahead, in slices). */
  prime(value: T): void;
}

/**
 * A value computed from some tables of `store`, computed again only after one of them changed
 * (for list views that would otherwise copy and sort a table on every request). With `recent`,
 * the value is held only while it is among the values used lately (a weak reference otherwise,
 * computed again if it was collected), so an idle mall does not keep its views.
 */
export function derivedFrom<T extends object>(
  store: SandboxStore,
  tables: readonly StoreTable[],
  compute: () => T,
  recent?: RecentValues,
): Derived<T> {
  let computedAt: string | undefined;
  let held: { deref(): T | undefined } | undefined;
  const revisions = () => tables.map((table) => store.revision(table)).join('|');
  const keep = (value: T) => {
    held = recent ? new WeakRef(value) : { deref: () => value };
    computedAt = revisions();
  };
  const derived = () => {
    let value = computedAt === revisions() ? held?.deref() : undefined;
    if (value === undefined) {
      value = compute();
      keep(value);
    }
    recent?.use(value);
    return value;
  };
  return Object.assign(derived, { prime: keep });
}
