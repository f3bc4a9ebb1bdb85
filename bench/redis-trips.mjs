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
// loaded from the measured build's place).
//   node bench/redis-trips.mjs [--requests 30] [--compare-dist DIR] [--postgres]
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { importTypeScript } from './support/import-typescript.mjs';
import { startRedis } from './support/redis.mjs';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '30' },
    'compare-dist': { type: 'string' },
    postgres: { type: 'boolean', default: false },
  },
});
const requests = Number(values.requests);
const thisBuild = join(import.meta.dirname, '..', 'packages/mock-server/dist');

/** @typedef {{ commands: number, reads: number, bytes: number, statements: number }} RedisCounts */

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

/** Redis's totals so far: commands run (but INFO), read events, bytes received. */
async function totals(/** @type {Redis} */ redis) {
  const text = `${await redis.info('stats')}${await redis.info('commandstats')}`;
  const stat = (/** @type {string} */ name) => Number(new RegExp(`${name}:(\\d+)`).exec(text)?.[1] ?? 0);
  const commands = [...text.matchAll(/cmdstat_(\w+):calls=(\d+)/g)]
    .filter(([, command]) => command !== 'info')
    .reduce((sum, [, , calls]) => sum + Number(calls), 0);
  return { commands, reads: stat('total_reads_processed'), bytes: stat('total_net_input_bytes') };
}

/**
 * Per-request counts of one build with the rate limits `rateLimit`.
 * @param {string} dist the mock-server package's `dist` directory
 * @param {string} url Redis
 * @param {'on' | 'off'} rateLimit
 * @param {string | undefined} postgres the database's URL, when the malls are kept there
 * @returns {Promise<RedisCounts>}
 */
async function perRequest(dist, url, rateLimit, postgres) {
  const statements = postgres ? countStatements(dist) : { sent: 0 };
  /** @type {typeof import('@mall-api/mock-server')} */
  const mock = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  const served = await mock.startMockServers({
    apis: ['admin'],
    ports: { admin: 0 },
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
      ['mall.read_category'],
      'demomall',
    );
    const admin = served.mocks[0]?.url ?? '';
    const get = async () => {
      const answer = await fetch(`${admin}/api/v2/admin/categories?limit=2`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (answer.status !== 200) throw new Error(`GET answered ${answer.status}`);
      await answer.arrayBuffer();
    };
    for (let i = 0; i < 5; i++) await get(); // the mall is created, the scripts are loaded
    const before = await totals(redis);
    const sentBefore = statements.sent;
    // Fewer calls than the admin bucket's 40, so every one is admitted with the limits on too.
    for (let i = 0; i < requests; i++) await get();
    const after = await totals(redis);
    const sent = statements.sent - sentBefore;
    // The first totals' two INFO calls are read events of their own (their commands are left out).
    return {
      commands: (after.commands - before.commands) / requests,
      reads: (after.reads - before.reads - 2) / requests,
      bytes: (after.bytes - before.bytes) / requests,
      statements: sent / requests,
    };
  } finally {
    await redis.quit();
    await served.close();
  }
}

if (requests >= 40) throw new Error('--requests must stay under the admin bucket of 40');
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
  process.stdout.write(
    `build        rate limits  commands  writes  bytes   (per admin GET, Redis side)${database ? '  PostgreSQL statements' : ''}\n`,
  );
  for (const [label, dist] of builds)
    for (const rateLimit of /** @type {const} */ (['on', 'off'])) {
      const counts = await perRequest(/** @type {string} */ (dist), server.url, rateLimit, database?.url);
      process.stdout.write(
        `${String(label).padEnd(12)} ${rateLimit.padEnd(12)} ${counts.commands.toFixed(1).padStart(8)}  ${counts.reads.toFixed(1).padStart(6)}  ${counts.bytes.toFixed(0).padStart(5)}${database ? counts.statements.toFixed(1).padStart(25) : ''}\n`,
      );
    }
} finally {
  await server.stop();
  await database?.stop();
}
