// Module functions over a state record, bound to one record: how a service object is made from the
// functions of its module (each takes the record first) without restating their signatures.

/** `operation` with its first argument, the state record, fixed to `state`. */
export const boundTo =
  <S>(state: S) =>
  <A extends unknown[], R>(operation: (state: S, ...args: A) => R) =>
  (...args: A): R =>
    operation(state, ...args);
