#!/usr/bin/env node
// Benchmark: how long a large fixture load stalls another mall's reads, in memory against on
// PostgreSQL + Redis (issue #33). One mock process — the in-memory one (support/serve-mock.mjs,
// the baseline) or one `mall-api-mock` replica on a throwaway PostgreSQL and redis-server
// (support/shared-replicas.mjs) — loads a fixture of `--categories` categories into a new mall
// through the control API while two probes read, one call after another, 10 ms apart, as two
// testers would: another mall (the demo mall's categories, admin API) and the collection's shops
// over every mall. A probe sees a stall whole, where a load generator's percentiles count it once
// per connection. For each it prints the load's time, each probe's p99 and longest call during
// the load and its longest call over two idle seconds just before, then the longest calls on
// PostgreSQL as ratios of the in-memory ones in the same round. Rows alternate within each of
// `--rounds` rounds.
//   node bench/fixture-stall.mjs [--categories 40000] [--rounds 2]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startServeMock } from './support/serve-mock-process.mjs';
import { startReplica, startSharedStores } from './support/shared-replicas.mjs';
import { mallToken } from './support/write-mix.mjs';

const { values } = parseArgs({
  options: {
    categories: { type: 'string', default: '40000' },
    rounds: { type: 'string', default: '2' },
  },
});
const fixture = JSON.stringify({
  categories: Array.from({ length: Number(values.categories) }, (_, i) => ({ category_name: `Bench ${i}` })),
});

/** @typedef {{ p99: number, max: number, calls: number }} Probed */
/** @typedef {{ mall: Probed, shops: Probed }} Probes */
/** @typedef {{ loadMs: number, during: Probes, idle: Probes }} Stall */

const partner = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;

/**
 * Calls `url` one call after another until `until` settles.
 * @param {string} url
 * @param {string} authorization
 * @param {Promise<unknown>} until
 * @returns {Promise<Probed>}
 */
async function probe(url, authorization, until) {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  /** @type {number[]} */
  const times = [];
  while (!done) {
    const started = performance.now();
    const answer = await fetch(url, { headers: { authorization } });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`the probe was answered ${answer.status}`);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  times.sort((a, b) => a - b);
  return { p99: times[Math.floor(times.length * 0.99)] ?? 0, max: times.at(-1) ?? 0, calls: times.length };
}

/**
 * Both probes until `until` settles.
 * @param {Record<import('@mall-api/rate-limit').ApiName, string>} urls
 * @param {string} token
 * @param {Promise<unknown>} until
 * @returns {Promise<Probes>}
 */
async function probes(urls, token, until) {
  const [mall, shops] = await Promise.all([
    probe(`${urls.admin}/api/v2/admin/categories?limit=20`, `Bearer ${token}`, until),
    probe(`${urls.collection}/api/shops?limit=20`, partner, until),
  ]);
  return { mall, shops };
}

/**
 * The probes idle, then during the fixture load, on one server.
 * @param {Record<import('@mall-api/rate-limit').ApiName, string>} urls
 * @param {string} token
 * @param {string} mall the mall the fixture goes to (new each time)
 * @returns {Promise<Stall>}
 */
async function stall(urls, token, mall) {
  const idle = await probes(urls, token, new Promise((resolve) => setTimeout(resolve, 2_000)));
  const started = performance.now();
  const load = fetch(`${urls.admin}/__mock/malls/${mall}/fixtures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: fixture,
  }).then(async (answer) => {
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`the fixture load was answered ${answer.status}`);
  });
  const during = await probes(urls, token, load);
  await load;
  return { loadMs: performance.now() - started, during, idle };
}

/** @param {number} round */
async function inMemory(round) {
  const server = await startServeMock({ MOCK_SANDBOX: '1' });
  try {
    return await stall(server.urls, server.token, `stall-memory-${round}`);
  } finally {
    await server.stop();
  }
}

/**
 * @param {import('./support/shared-replicas.mjs').SharedStores} stores
 * @param {number} round
 */
async function onPostgres(stores, round) {
  const replica = await startReplica(stores);
  try {
    const token = await mallToken(replica.urls.admin, 'demomall', 'mall.read_category');
    return await stall(replica.urls, token, `stall-postgres-${round}`);
  } finally {
    await replica.stop();
  }
}

const labels = ['in memory', 'PostgreSQL + Redis'];
/** @type {Stall[][]} */
const rounds = [];
const loadBefore = loadavg()[0] ?? 0;
const stores = await startSharedStores();
try {
  for (let round = 0; round < Number(values.rounds); round++)
    rounds.push([await inMemory(round), await onPostgres(stores, round)]);
} finally {
  await stores.stop();
}
const loadAfter = loadavg()[0] ?? 0;
process.stdout.write(
  `${values.categories}-category fixture; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after\n`,
);
rounds.forEach((rows, round) => {
  const base = rows[0];
  rows.forEach((row, i) => {
    /** @param {keyof Probes} which */
    const shown = (which) => {
      const { p99, max, calls } = row.during[which];
      const ratio = base ? max / base.during[which].max : Number.NaN;
      return `${which}: p99 ${p99.toFixed(0).padStart(5)} ms, longest ${max.toFixed(0).padStart(5)} ms (${calls} calls; idle longest ${row.idle[which].max.toFixed(0)} ms) ${ratio.toFixed(2)}x memory's`;
    };
    process.stdout.write(
      `round ${round + 1}  ${(labels[i] ?? '').padEnd(19)} load ${row.loadMs.toFixed(0).padStart(6)} ms  ${shown('mall')}  ${shown('shops')}\n`,
    );
  });
});
