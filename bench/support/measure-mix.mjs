// Benchmark support: one measurement of the GET mix against mocks started in their own process
// with the given environment (MOCK_SANDBOX, MOCK_CHECKOUT), and the median of a series.
import { loadMix } from './load-mix.mjs';
import { startServeMock } from './serve-mock-process.mjs';

/**
 * Starts the mocks with `env`, loads them with the GET mix, stops them.
 * @param {Record<string, string>} env
 * @param {{ seconds: number, connections: number, distinct?: boolean, paths?: readonly string[] }} options
 */
export async function measureMix(env, options) {
  const server = await startServeMock(env);
  try {
    return await loadMix(server.urls, server.token, {
      ...options,
      ...(server.pid === undefined ? {} : { serverPids: [server.pid] }),
    });
  } finally {
    await server.stop();
  }
}

/** @param {number[]} values */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
