// Benchmark support: loads the three mock APIs at once with the GET mix of request-mix.mjs,
// splitting the connections among them, after a warm-up that is not counted; sums throughput and
// takes the worst p99, and, given the servers' process ids, says how many cores the servers and
// this process (the load generator) used while counted and the servers' CPU time per request.

import { apiNames } from '@mall-api/spec-model';
import autocannon from 'autocannon';
import { cpuShares } from './process-cpu.mjs';
import { distinctUrls, requestMix } from './request-mix.mjs';

const apis = apiNames;

/**
 * Throughput and worst p99 of the mix on all three APIs, the count of non-2xx answers and errors,
 * and (when the servers' pids were given and /proc can say) the cores the servers and the load
 * generator used and the servers' CPU microseconds per request.
 * @typedef {{ requestsPerSecond: number, p99: number, failures: number, serverCores?: number, loaderCores?: number, serverCpuMicrosPerRequest?: number }} LoadResult
 */

/**
 * @param {Record<import('@mall-api/rate-limit').ApiName, string>} urls base URL per API
 * @returns {Promise<LoadResult>}
 * @param {string} token bearer token for admin and analytics
 * @param {{ seconds: number, connections: number, warmupSeconds?: number, serverPids?: readonly number[], distinct?: boolean, paths?: readonly string[] }} options
 *   `distinct`: no URL sent twice (request-mix.mjs's `distinctUrls`); `paths`: only the requests
 *   to these paths (without the query), and only the APIs that have one
 */
export async function loadMix(
  urls,
  token,
  { seconds, connections, warmupSeconds = 2, serverPids, distinct = false, paths },
) {
  const all = requestMix(token);
  const picked = paths
    ? Object.fromEntries(
        apis.map((api) => [api, all[api].filter((r) => paths.includes(String(r.path).split('?')[0] ?? ''))]),
      )
    : all;
  const mix = distinct ? distinctUrls(/** @type {typeof all} */ (picked)) : picked;
  const loaded = apis.filter((api) => (mix[api]?.length ?? 0) > 0);
  const perApi = Math.max(1, Math.floor(connections / loaded.length));
  /** @param {number} duration */
  const round = (duration) =>
    Promise.all(
      loaded.map((api) => autocannon({ url: urls[api], requests: mix[api], connections: perApi, duration })),
    );
  if (warmupSeconds > 0) await round(warmupSeconds); // first requests compile validators and V8 optimises
  const shares = serverPids && cpuShares(serverPids);
  const results = await round(seconds);
  const cores = shares?.();
  const requestsPerSecond = results.reduce((sum, r) => sum + r.requests.average, 0);
  const load = {
    requestsPerSecond,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
  if (!cores) return load;
  const { serverCores, loaderCores } = cores;
  return serverCores === undefined
    ? { ...load, loaderCores }
    : {
        ...load,
        serverCores,
        loaderCores,
        serverCpuMicrosPerRequest: (serverCores * 1e6) / requestsPerSecond,
      };
}
