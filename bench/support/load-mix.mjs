// Benchmark support: loads the three mock APIs at once with the GET mix of request-mix.mjs,
// splitting the connections among them, after a warm-up that is not counted; sums throughput and
// takes the worst p99.

import { apiNames } from '@mall-api/spec-model';
import autocannon from 'autocannon';
import { requestMix } from './request-mix.mjs';

const apis = apiNames;

/**
 * Throughput and worst p99 of the mix on all three APIs, and the count of non-2xx answers and errors.
 * @typedef {{ requestsPerSecond: number, p99: number, failures: number }} LoadResult
 */

/**
 * @param {Record<import('@mall-api/rate-limit').ApiName, string>} urls base URL per API
 * @returns {Promise<LoadResult>}
 * @param {string} token bearer token for admin and analytics
 * @param {{ seconds: number, connections: number, warmupSeconds?: number }} options
 */
export async function loadMix(urls, token, { seconds, connections, warmupSeconds = 2 }) {
  const mix = requestMix(token);
  const perApi = Math.max(1, Math.floor(connections / apis.length));
  /** @param {number} duration */
  const round = (duration) =>
    Promise.all(
      apis.map((api) => autocannon({ url: urls[api], requests: mix[api], connections: perApi, duration })),
    );
  await round(warmupSeconds); // first requests compile validators and V8 optimises
  const results = await round(seconds);
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}
