// A value that is there now (the in-memory stores) or later (the Redis stores), and the one way to
// chain work after it: synchronously when the value is already there, so a single process pays no
// promise per step, and after the promise otherwise. Not a promise library.

/** A value now, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** Runs `next` on `value` once it is there: at once for a plain value, after the promise otherwise. */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
