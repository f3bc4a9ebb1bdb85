#!/usr/bin/env node
// Benchmark: bulk fetches from each API's mock through our clients under the APIs' real limits
// (the specs' `x-rate-limit`, read through `apiLimits`), in real time, against the theoretical
// minimum time each limit allows:
//   collection  sliding log 40 in any 60 s: call k > 40 waits until 60 s after call k - 40, so
//               N calls need floor((N - 1) / 40) minutes;
//   admin       leaky bucket 40, draining 2/s: N calls need (N - 40) / 2 seconds;
//   analytics   token bucket 10, one token per 2 s: N calls need (N - 10) × 2 seconds;
// plus four worker processes sharing one admin mall through Redis. Prints elapsed and minimum
// time, throughput as a share of what the limit allows, and the count of 429s (target: 0).
//   node bench/bulk-fetch.mjs [--collection 60] [--admin 100] [--analytics 30] [--workers 4] [--per-worker 30]
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createAdminClient } from '@mall-api/admin-client';
import { createAnalyticsClient } from '@mall-api/analytics-client';
import { createCollectionClient } from '@mall-api/collection-client';
import { issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { apiLimits, policyLimit, refillPerSecond } from '@mall-api/rate-limit';
import { startRedis } from './support/redis.mjs';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    collection: { type: 'string', default: '60' },
    admin: { type: 'string', default: '100' },
    analytics: { type: 'string', default: '30' },
    workers: { type: 'string', default: '4' },
    'per-worker': { type: 'string', default: '30' },
  },
});
const served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 } });
const url = /** @type {Record<import('@mall-api/rate-limit').ApiName, string>} */ (
  Object.fromEntries(served.mocks.map((mock) => [mock.api, mock.url]))
);
const allScopes = ['mall.read_category', 'mall.read_product', 'mall.read_analytics'];
/**
 * One measured run: calls made, real elapsed ms, the least ms the API's limit allows, and 429s.
 * @typedef {{ label: string, count: number, elapsed: number, minimumMs: number, tooMany: number }} Row
 */
/** @type {Row[]} */
const rows = [];

/**
 * The least time `count` calls sent at once take under an API's policy, after its first burst.
 * @param {'collection' | 'admin' | 'analytics'} api
 * @param {number} count
 */
function minimumMs(api, count) {
  const policy = apiLimits[api].policy;
  const burst = policyLimit(policy);
  if (count <= burst) return 0;
  if (policy.kind === 'sliding-log') return Math.floor((count - 1) / burst) * policy.windowMs;
  if (policy.kind === 'fixed-window') throw new Error('an aligned window depends on the start time');
  return ((count - burst) / refillPerSecond(policy)) * 1000;
}

/**
 * Makes `count` calls one after another and records the elapsed time against the minimum.
 * @param {string} label
 * @param {number} count
 * @param {number} minimum least ms the limit allows
 * @param {(index: number) => Promise<number>} call makes call `index`; resolves to its HTTP status
 */
async function measure(label, count, minimum, call) {
  const started = Date.now();
  const statuses = [];
  for (let i = 0; i < count; i++) statuses.push(await call(i));
  const elapsed = Date.now() - started;
  rows.push({
    label,
    count,
    elapsed,
    minimumMs: minimum,
    tooMany: statuses.filter((s) => s === 429).length,
  });
}

const collection = createCollectionClient({
  clientId: 'demo-partner',
  clientSecret: 'demo-partner-secret',
  baseUrl: url.collection,
});
await measure(
  'collection',
  Number(values.collection),
  minimumMs('collection', Number(values.collection)),
  async (i) =>
    (await collection.GET('/api/shops', { params: { query: { limit: 10, offset: i } } })).response.status,
);

const adminToken = issueDemoTokens(served.authority, allScopes, 'benchmall').access_token;
const admin = createAdminClient({
  mallId: 'benchmall',
  baseUrl: url.admin,
  auth: { accessToken: adminToken },
});
await measure(
  'admin',
  Number(values.admin),
  minimumMs('admin', Number(values.admin)),
  async (i) =>
    (await admin.GET('/api/v2/admin/categories', { params: { query: { limit: 10, offset: i } } })).response
      .status,
);

const analyticsToken = issueDemoTokens(served.authority, allScopes, 'benchmall').access_token;
const analytics = createAnalyticsClient({ baseUrl: url.analytics, auth: { accessToken: analyticsToken } });
await measure(
  'analytics',
  Number(values.analytics),
  minimumMs('analytics', Number(values.analytics)),
  async (i) =>
    (
      await analytics.GET('/visitors/view', {
        params: {
          query: {
            mall_id: 'benchmall',
            start_date: '2026-10-01',
            end_date: '2026-10-31',
            limit: 50,
            offset: i * 50,
          },
        },
      })
    ).response.status,
);

const redis = await startRedis();
try {
  const workers = Number(values.workers);
  const perWorker = Number(values['per-worker']);
  const token = issueDemoTokens(served.authority, allScopes, 'demomall').access_token;
  const started = Date.now();
  const outputs = await Promise.all(
    Array.from({ length: workers }, () =>
      run(process.execPath, [
        join(import.meta.dirname, 'support/admin-worker.mjs'),
        redis.url,
        url.admin,
        token,
        String(perWorker),
      ]),
    ),
  );
  /** @type {{ statuses: number[], finishedAt: number }[]} */
  const results = outputs.map((output) => JSON.parse(output.stdout));
  const statuses = results.flatMap((result) => result.statuses);
  rows.push({
    label: `admin, ${workers} workers via Redis`,
    count: statuses.length,
    elapsed: Math.max(...results.map((result) => result.finishedAt)) - started,
    minimumMs: minimumMs('admin', statuses.length),
    tooMany: statuses.filter((s) => s === 429).length,
  });
} finally {
  await redis.stop();
  await served.close();
}

process.stdout.write(
  `${'run'.padEnd(30)}${'calls'.padStart(6)}${'elapsed s'.padStart(11)}${'minimum s'.padStart(11)}${'of allowed'.padStart(12)}${'429s'.padStart(6)}\n`,
);
for (const row of rows) {
  const share = row.elapsed === 0 ? 1 : Math.min(1, row.minimumMs / row.elapsed);
  process.stdout.write(
    `${row.label.padEnd(30)}${String(row.count).padStart(6)}${(row.elapsed / 1000).toFixed(1).padStart(11)}${(row.minimumMs / 1000).toFixed(1).padStart(11)}${`${(share * 100).toFixed(1)}%`.padStart(12)}${String(row.tooMany).padStart(6)}\n`,
  );
}
