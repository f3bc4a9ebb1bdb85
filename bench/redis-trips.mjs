#!/usr/bin/env node
// Benchmark: what one request costs the shared Redis — commands Redis ran (those inside the Lua
// scripts included), writes it read from the mock's connection (Redis's read events: one per
// batch of commands the client wrote at once) and bytes it received — per authenticated admin GET
// of a sandbox mall, sent one at a time to a mock on a throwaway redis-server, with the rate
// limits on and off. Counts, not times, so the figures do not move with the machine's load.
// `--compare-dist DIR` measures another build of the mock (its `dist`, e.g. one built from the
// commit before a change) in the same run: a before/after. `--postgres` keeps the sandbox malls in
// a throwaway PostgreSQL (packages/test-support/src/postgres-server.ts) as replicas do, and also counts
// the statements the mock sent it per GET (each a round trip; counted in `pg`'s Client.query, as
// loaded from the measured build's place). `--mix` serves the three APIs and measures every request
// of the GET mix the throughput benchmarks send (support/request-mix.mjs) instead of the admin GET,
// with the limits off: a row per request and the mix's mean (one request of each). `--concurrent N`
// sends each request N at a time instead of one at a time (as concurrent clients do, so the
// figures show what a replica shares between requests that arrive together); `scripts` counts the
// Lua script calls (EVALSHA, EVAL) among the commands.
//   node bench/redis-trips.mjs [--requests 30] [--concurrent 1] [--compare-dist DIR] [--postgres] [--mix]
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { importTypeScript } from './support/import-typescript.mjs';
import { startRedis, redisTotals as totals } from './support/redis.mjs';
import { requestMix } from './support/request-mix.mjs';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '30' },
    'compare-dist': { type: 'string' },
    postgres: { type: 'boolean', default: false },
    mix: { type: 'boolean', default: false },
    concurrent: { type: 'string', default: '1' },
  },
});
const requests = Number(values.requests);
const concurrent = Number(values.concurrent);
const thisBuild = join(import.meta.dirname, '..', 'packages/mock-server/dist');

/** @typedef {{ commands: number, scripts: number, reads: number, bytes: number, statements: number }} RedisCounts */

/**
 * Counts the statements sent through the `pg` a build at `dist` loads (its Client.query).
 * @param {string} dist
 */
function countStatements(dist) {
  const pg = createRequire(join(resolve(dist), 'index.js'))('pg');
  const query = pg.Client.prototype.query;
  const counter = { sent: 0 };
  pg.Client.prototype.query = function (/** @type {unknown[]} */ ...args) {
    counter.sent += 1;
    return query.apply(this, args);
  };
  return counter;
}

/** @typedef {{ label: string, send: () => Promise<void> }} Measured a request measured: its label, and how to send it (resolves once answered 2xx) */

/**
 * The requests measured on a build's mocks: the admin GET, or every request of the GET mix.
 * @param {{ mocks: { api: string, url: string }[] }} served
 * @param {string} token
 * @returns {Measured[]}
 */
function measuredRequests(served, token) {
  /** @param {string} url @param {Record<string, string>} headers @returns {Measured['send']} */
  const sender = (url, headers) => async () => {
    const answer = await fetch(url, { headers });
    await answer.arrayBuffer();
    if (answer.status >= 300) throw new Error(`${url} answered ${answer.status}`);
  };
  const urlOf = (/** @type {string} */ api) => served.mocks.find((mock) => mock.api === api)?.url ?? '';
  if (!values.mix) {
    const path = '/api/v2/admin/categories?limit=2';
    return [
      { label: 'admin GET', send: sender(`${urlOf('admin')}${path}`, { authorization: `Bearer ${token}` }) },
    ];
  }
  return Object.entries(requestMix(token)).flatMap(([api, mix]) =>
    mix.map((request) => ({
      label: `${api} ${String(request.path).split('?')[0]}`,
      send: sender(`${urlOf(api)}${request.path}`, /** @type {Record<string, string>} */ (request.headers)),
    })),
  );
}

/**
 * Per-request counts of one build with the rate limits `rateLimit`, for each measured request.
 * @param {string} dist the mock-server package's `dist` directory
 * @param {string} url Redis
 * @param {'on' | 'off'} rateLimit
 * @param {string | undefined} postgres the database's URL, when the malls are kept there
 * @returns {Promise<(RedisCounts & { label: string })[]>}
 */
async function perRequest(dist, url, rateLimit, postgres) {
  const statements = postgres ? countStatements(dist) : { sent: 0 };
  /** @type {typeof import('@mall-api/mock-server')} */
  const mock = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  /** @type {import('@mall-api/mock-server').ApiName[]} */
  const apis = values.mix ? ['collection', 'admin', 'analytics'] : ['admin'];
  const served = await mock.startMockServers({
    apis,
    ports: Object.fromEntries(apis.map((api) => [api, 0])),
    sandbox: { seed: 1, ...(postgres ? { store: { postgres } } : {}) },
    redis: { url, prefix: `trips-${rateLimit}-${Date.now()}:` },
    rateLimit,
  });
  const redis = new Redis(url);
  try {
    // A build from before issueDemoTokens served Redis-backed authorities names it requestDemoTokens.
    /** @type {any} */
    const older = mock;
    const { access_token: token } = await (older.requestDemoTokens ?? mock.issueDemoTokens)(
      served.authority,
      ['mall.read_category', 'mall.read_product', 'mall.read_analytics'],
      'demomall',
    );
    const counted = [];
    for (const { label, send } of measuredRequests(served, token)) {
      for (let i = 0; i < 5; i++) await send(); // the mall is created, the scripts are loaded
      const before = await totals(redis);
      const sentBefore = statements.sent;
      // Fewer calls than the admin bucket's 40, so every one is admitted with the limits on too.
      for (let i = 0; i < requests; i += concurrent)
        await Promise.all(Array.from({ length: Math.min(concurrent, requests - i) }, send));
      const after = await totals(redis);
      const sent = statements.sent - sentBefore;
      // The first totals' two INFO calls are read events of their own (their commands are left out).
      counted.push({
        label,
        commands: (after.commands - before.commands) / requests,
        scripts: (after.scripts - before.scripts) / requests,
        reads: (after.reads - before.reads - 2) / requests,
        bytes: (after.bytes - before.bytes) / requests,
        statements: sent / requests,
      });
    }
    return counted;
  } finally {
    await redis.quit();
    await served.close();
  }
}

if (requests >= 40) throw new Error('--requests must stay under the admin bucket of 40');
if (!(Number.isInteger(concurrent) && concurrent >= 1))
  throw new Error('--concurrent must be a positive integer');
const server = await startRedis();
const database = values.postgres
  ? await /** @type {typeof import('@mall-api/test-support/postgres-server')} */ (
      await importTypeScript(join(import.meta.dirname, '..', 'packages/test-support/src/postgres-server.ts'))
    ).startPostgres()
  : undefined;
try {
  const builds = [
    ['this build', thisBuild],
    ...(values['compare-dist'] ? [['compared', values['compare-dist']]] : []),
  ];
  const width = values.mix ? 48 : 12;
  process.stdout.write(
    `${'build'.padEnd(width)} rate limits  commands  scripts  writes  bytes   (per ${values.mix ? 'request' : 'admin GET'}, Redis side, ${concurrent} at a time)${database ? '  PostgreSQL statements' : ''}\n`,
  );
  /** @param {string} label @param {string} rateLimit @param {RedisCounts} counts */
  const row = (label, rateLimit, counts) =>
    process.stdout.write(
      `${label.padEnd(width)} ${rateLimit.padEnd(12)} ${counts.commands.toFixed(1).padStart(8)}  ${counts.scripts.toFixed(2).padStart(7)}  ${counts.reads.toFixed(1).padStart(6)}  ${counts.bytes.toFixed(0).padStart(5)}${database ? counts.statements.toFixed(2).padStart(25) : ''}\n`,
    );
  for (const [label, dist] of builds)
    for (const rateLimit of /** @type {('on' | 'off')[]} */ (values.mix ? ['off'] : ['on', 'off'])) {
      const counted = await perRequest(/** @type {string} */ (dist), server.url, rateLimit, database?.url);
      if (values.mix) for (const one of counted) row(`  ${one.label}`, rateLimit, one);
      /** @param {keyof RedisCounts} key */
      const mean = (key) => counted.reduce((sum, one) => sum + one[key], 0) / counted.length;
      row(values.mix ? `${label} (mix mean)` : String(label), rateLimit, {
        commands: mean('commands'),
        scripts: mean('scripts'),
        reads: mean('reads'),
        bytes: mean('bytes'),
        statements: mean('statements'),
      });
    }
} finally {
  await server.stop();
  await database?.stop();
}
