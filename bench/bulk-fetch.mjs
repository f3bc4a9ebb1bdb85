#!/usr/bin/env node
// Benchmark: bulk fetches through our clients under the APIs' real limits (the specs' `x-rate-limit`,
// read through `apiLimits`), against the theoretical minimum time each limit allows for calls fired
// at once (`minimumBulkMs`): the sliding log admits call k > 40 a window after call k - 40, the
// buckets their capacity at once and then their rate. Two kinds of figures, labelled in the output:
//   real-wire   the client against each API's mock over HTTP in real time, all APIs at once (each
//               run kept to about 3 min), plus worker processes sharing one admin mall through Redis;
//   simulated   the real client scheduler against the real server limiter in simulated time
//               (`@mall-api/rate-limit/simulation`), with 5-125 ms each way drawn per request and
//               the server's clock 500 ms behind or ahead: the runs real time cannot afford (1,000
//               collection calls take 24 min).
// Prints calls, elapsed and minimum time, their ratio (target ≤ 1.05) and the 429s on the wire,
// retried ones included (target 0).
//   node bench/bulk-fetch.mjs [--real 100] [--simulated 100,1000] [--workers 4] [--per-worker 30]
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createAdminClient } from '@mall-api/admin-client';
import { createAnalyticsClient } from '@mall-api/analytics-client';
import { createCollectionClient } from '@mall-api/collection-client';
import { issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { minimumBulkMs, simulateBulk } from '@mall-api/rate-limit/simulation';
import { apiNames } from '@mall-api/spec-model';
import { startRedis } from './support/redis.mjs';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    real: { type: 'string', default: '100' },
    simulated: { type: 'string', default: '100,1000' },
    workers: { type: 'string', default: '4' },
    'per-worker': { type: 'string', default: '30' },
  },
});
const apis = apiNames;

/**
 * One measured run.
 * @typedef {{ kind: 'real-wire' | 'simulated', label: string, count: number, elapsedMs: number, minimumMs: number, tooMany: number }} Row
 */
/** @type {Row[]} */
const rows = [];

/** A repeatable source of numbers in [0, 1). */
function seeded(seed = 1) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 } });
const url = Object.fromEntries(served.mocks.map((mock) => [mock.api, mock.url]));
const allScopes = ['mall.read_category', 'mall.read_product', 'mall.read_analytics'];
const benchToken = (await issueDemoTokens(served.authority, allScopes, 'benchmall')).access_token;

/**
 * Fires `count` calls of `api` at once through its client; resolves to the row.
 * @param {import('@mall-api/spec-model').ApiName} api
 * @param {number} count
 * @returns {Promise<Row>}
 */
async function realWire(api, count) {
  let tooMany = 0;
  /** @param {{ type: string, status?: number }} event */
  const onEvent = (event) => {
    if (event.type === 'response' && event.status === 429) tooMany += 1;
  };
  /** @type {(i: number) => Promise<{ response: Response }>} */
  let call;
  if (api === 'collection') {
    const client = createCollectionClient({
      clientId: 'demo-partner',
      clientSecret: 'demo-partner-secret',
      baseUrl: url.collection ?? '',
      onEvent,
    });
    call = (i) => client.GET('/api/shops', { params: { query: { limit: 10, offset: i } } });
  } else if (api === 'admin') {
    const client = createAdminClient({
      mallId: 'benchmall',
      baseUrl: url.admin ?? '',
      auth: { accessToken: benchToken },
      onEvent,
    });
    call = (i) => client.GET('/api/v2/admin/categories', { params: { query: { limit: 10, offset: i } } });
  } else {
    const client = createAnalyticsClient({
      baseUrl: url.analytics ?? '',
      auth: { accessToken: benchToken },
      onEvent,
    });
    const query = { mall_id: 'benchmall', start_date: '2026-10-01', end_date: '2026-10-31', limit: 50 };
    call = (i) => client.GET('/visitors/view', { params: { query: { ...query, offset: i * 50 } } });
  }
  const started = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: count }, async (_, i) => (await call(i)).response.status),
  );
  const failed = statuses.filter((status) => status !== 200);
  if (failed.length > 0) throw new Error(`${api}: ${failed.length} calls ended in ${failed.join(', ')}`);
  return {
    kind: 'real-wire',
    label: api,
    count,
    elapsedMs: Date.now() - started,
    minimumMs: minimumBulkMs(api, count),
    tooMany,
  };
}

const redis = await startRedis();
try {
  const realCount = Number(values.real);
  rows.push(...(await Promise.all(apis.map((api) => realWire(api, realCount)))));

  const workers = Number(values.workers);
  const perWorker = Number(values['per-worker']);
  const demoToken = (await issueDemoTokens(served.authority, allScopes, 'demomall')).access_token;
  const started = Date.now();
  const outputs = await Promise.all(
    Array.from({ length: workers }, () =>
      run(process.execPath, [
        join(import.meta.dirname, 'support/admin-worker.mjs'),
        redis.url,
        url.admin ?? '',
        demoToken,
        String(perWorker),
      ]),
    ),
  );
  /** @type {{ statuses: number[], tooMany: number, finishedAt: number }[]} */
  const results = outputs.map((output) => JSON.parse(output.stdout));
  const count = results.reduce((sum, result) => sum + result.statuses.length, 0);
  rows.push({
    kind: 'real-wire',
    label: `admin, ${workers} workers via Redis`,
    count,
    elapsedMs: Math.max(...results.map((result) => result.finishedAt)) - started,
    minimumMs: minimumBulkMs('admin', count),
    tooMany: results.reduce((sum, result) => sum + result.tooMany, 0),
  });
} finally {
  await redis.stop();
  await served.close();
}

const random = seeded(28);
for (const count of values.simulated.split(',').map(Number)) {
  for (const api of apis) {
    for (const skewMs of [-500, 500]) {
      const outcome = await simulateBulk({ api, calls: count, skewMs, latencyMs: () => 5 + random() * 120 });
      const label = `${api}, server clock ${skewMs > 0 ? '+' : ''}${skewMs} ms`;
      rows.push({ kind: 'simulated', label, count, ...outcome });
    }
  }
}

process.stdout.write(
  `${'figures'.padEnd(11)}${'run'.padEnd(34)}${'calls'.padStart(6)}${'elapsed s'.padStart(11)}${'minimum s'.padStart(11)}${'ratio'.padStart(7)}${'429s'.padStart(6)}\n`,
);
for (const row of rows) {
  const ratio = row.minimumMs === 0 ? '-' : (row.elapsedMs / row.minimumMs).toFixed(3);
  process.stdout.write(
    `${row.kind.padEnd(11)}${row.label.padEnd(34)}${String(row.count).padStart(6)}${(row.elapsedMs / 1000).toFixed(1).padStart(11)}${(row.minimumMs / 1000).toFixed(1).padStart(11)}${ratio.padStart(7)}${String(row.tooMany).padStart(6)}\n`,
  );
}
