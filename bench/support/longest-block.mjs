// Bench support: how long the event loop of this process was held while some work ran — the
// maximum of a monitorEventLoopDelay histogram and the longest gap between the ticks of a 1 ms
// timer, whichever is larger. Used by the fixture-load rows (sandbox-bounds.mjs,
// postgres-lifecycle.mjs); not a timed assertion, a figure to print.
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The longest event-loop block while `work` runs, the work's result and its duration.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<{ result: T, ms: number, blockMs: number }>}
 */
export async function longestBlock(work) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let longestGap = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 1);
  delay.enable();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  delay.disable();
  clearInterval(ticks);
  return { result, ms, blockMs: Math.max(delay.max / 1e6, longestGap) };
}
