// The one way long work here yields to the event loop (a `setImmediate`), so requests, timers and
// signals are served between two chunks of work. Not a scheduler.

/** Resolves on the next turn of the event loop, after pending I/O and timers had their turn. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
