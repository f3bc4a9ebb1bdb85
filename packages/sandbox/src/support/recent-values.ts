// The values recently used across every mall, held so the garbage collector keeps them: a mall's
// derived views are rebuilt on demand, so a view held only here and by a weak reference stays while
// among the latest `capacity` used and may be collected after; an idle mall costs its records alone.

/** Holds the latest `capacity` values used. */
export function recentValues(capacity: number) {
  const held = new Set<object>();
  return {
    /** Marks `value` used now (it is held until `capacity` other values were used after it). */
    use(value: object): void {
      held.delete(value);
      held.add(value);
      if (held.size > capacity)
        for (const oldest of held) {
          held.delete(oldest);
          break;
        }
    },
  };
}

/** Holds the latest values used (see {@link recentValues}). */
export type RecentValues = ReturnType<typeof recentValues>;
