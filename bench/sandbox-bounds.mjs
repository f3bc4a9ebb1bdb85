#!/usr/bin/env node
// Benchmark: the sandbox as a shared service (issue #21's "bounded, never frozen" targets).
//   1. fixture loads: 40,000 categories, and 100,000 records (40,000 categories and 60,000
//      products), with the longest event-loop block during each (monitorEventLoopDelay, and a
//      1 ms timer's longest lag), against the same figures for the idle process just before;
//   2. p99 of the GET mix on all three mocks (their own process) while the 100,000-record fixture
//      loads through the control API, against the p99 of the same mix without it;
//   3. RSS per idle seeded mall (1,000 malls against one, after a GC), created and never read, and
//      after a collection count over every mall read them all;
//   4. the collection's filtered products/count and products lists (mall order, sorted) at 1,000
//      seeded malls against one.
// Targets: 40k categories ≤ 1 s; no block over ~50 ms; p99 during the load ≤ 100 ms; count at
// 1,000 malls ≤ 1.5× count at one; ≤ 0.2 MB per idle mall. Run with: node bench/sandbox-bounds.mjs
import { spawnSync } from 'node:child_process';
import { startMockServers } from '@mall-api/mock-server';
import { createSandboxMalls } from '@mall-api/sandbox';
import { loadMix } from './support/load-mix.mjs';
import { longestBlock } from './support/longest-block.mjs';
import { startServeMock } from './support/serve-mock-process.mjs';

if (typeof globalThis.gc !== 'function') {
  // RSS per mall needs a collected heap: run again with --expose-gc.
  const run = spawnSync(process.execPath, ['--expose-gc', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const gc = /** @type {() => void} */ (globalThis.gc);

/** @param {number} count */
const categories = (count) => Array.from({ length: count }, (_, i) => ({ category_name: `Bench ${i}` }));
/** @param {number} count */
const products = (count) =>
  Array.from({ length: count }, (_, i) => ({
    product_name: `Bench ${i}`,
    price: '1000.00',
    supply_price: '500.00',
  }));

/**
 * Loads a fixture into an empty mall; prints its time and the longest event-loop block, against
 * the longest block of the idle process over the same time just before.
 * @param {string} label
 * @param {object} fixture
 */
async function timeLoad(label, fixture) {
  const malls = await createSandboxMalls({ newMall: 'empty' });
  const idle = await longestBlock(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
  const load = await longestBlock(() => malls.loadFixture('bench', fixture));
  await malls.close();
  const outcome = /** @type {import('@mall-api/sandbox').MallOutcome} */ (load.result);
  if (!outcome.ok) throw new Error(`${label}: ${outcome.message}`);
  console.log(
    `${label}: ${load.ms.toFixed(0)} ms; longest event-loop block ${load.blockMs.toFixed(0)} ms (idle process: ${idle.blockMs.toFixed(0)} ms; ratio ${(load.blockMs / idle.blockMs).toFixed(1)})`,
  );
}

/**
 * Latencies of one call after another to the collection's /api/shops until `until` settles (a
 * probe that sees a stall whole, where a load generator's percentiles count it once per connection).
 * @param {string} url
 * @param {Promise<unknown>} until
 */
async function probe(url, until) {
  const headers = {
    authorization: `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`,
  };
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times = [];
  let errors = 0;
  while (!done) {
    const started = performance.now();
    // A keep-alive socket the server closes after a stall resets the call: counted, and timed.
    await fetch(`${url}/api/shops`, { headers })
      .then((response) => response.arrayBuffer())
      .catch(() => {
        errors += 1;
      });
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  times.sort((a, b) => a - b);
  return { p99: times[Math.floor(times.length * 0.99)] ?? 0, max: times.at(-1) ?? 0, errors };
}

/** p99 of the GET mix and of a probe, with and without the 100k-record fixture loading meanwhile. */
async function p99DuringLoad() {
  const server = await startServeMock({ MOCK_SANDBOX: '1' });
  try {
    const quiet = await loadMix(server.urls, server.token, { seconds: 5, connections: 12 });
    const fixture = JSON.stringify({ categories: categories(40_000), products: products(60_000) });
    const loading = loadMix(server.urls, server.token, { seconds: 10, connections: 12, warmupSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const started = performance.now();
    const load = fetch(`${server.urls.admin}/__mock/malls/benchload/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: fixture,
    });
    const probed = await probe(server.urls.collection, load);
    const loaded = await load;
    const loadMs = performance.now() - started;
    const busy = await loading;
    console.log(
      `API mix p99: ${quiet.p99} ms quiet, ${busy.p99} ms while the 100k-record fixture loads over HTTP (${loaded.status} in ${loadMs.toFixed(0)} ms); one-at-a-time probe during the load: p99 ${probed.p99.toFixed(0)} ms, longest ${probed.max.toFixed(0)} ms, ${probed.errors} reset`,
    );
  } finally {
    await server.stop();
  }
}

/** Collects garbage once the current job has ended (weak references made in it are kept until then). */
const collect = async () => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
};

/** RSS per idle seeded mall (sandbox alone), 1,000 malls against one: never read, then read once. */
async function rssPerMall() {
  const malls = await createSandboxMalls({ newMall: { seed: 1 } });
  await malls.reset('mall-0');
  await collect();
  const before = process.memoryUsage().rss;
  for (let i = 1; i < 1_000; i += 1) await malls.reset(`mall-${i}`);
  await collect();
  const idle = (process.memoryUsage().rss - before) / 999 / 2 ** 20;
  const count = await malls.handle({
    api: 'collection',
    operationId: 'countProducts',
    path: {},
    query: { collection_product_category: ['C100000'] },
    body: undefined,
    mallId: undefined,
  });
  if (!count.ok) throw new Error('the count over every mall was refused');
  await collect();
  const read = (process.memoryUsage().rss - before) / 999 / 2 ** 20;
  console.log(
    `RSS per idle seeded mall (1,000 malls against one): ${idle.toFixed(2)} MB never read; ${read.toFixed(2)} MB after a collection count read every mall`,
  );
  await malls.close();
}

/** Median ms of the collection's filtered count and product lists over HTTP at one seeded mall and at 1,000. */
async function collectionScaling() {
  const served = await startMockServers({
    apis: ['collection'],
    ports: { collection: 0 },
    sandbox: { seed: 1 },
    mallLimits: { maxMalls: 2_000 },
  });
  const base = `${served.mocks[0]?.url}/api/products`;
  const queries = {
    'products/count': `${base}/count?collection_product_category=C100000`,
    'products (mall order, offset 50)': `${base}?collection_product_category=C100000&offset=50&limit=10`,
    'products (sort=price asc, offset 50)': `${base}?collection_product_category=C100000&sort=price&order=asc&offset=50&limit=10`,
  };
  const headers = {
    authorization: `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`,
  };
  /** @param {string} url */
  const median = async (url) => {
    const times = [];
    for (let i = 0; i < 301; i += 1) {
      served.malls.resetLimits('demomall'); // the collection's limit would stop the series
      const started = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    }
    return times.sort((a, b) => a - b)[150] ?? 0;
  };
  /** @param {string} url */
  const warmMedian = async (url) => {
    await median(url); // warm-up: each mall's figures are computed once, then kept until it changes
    return median(url);
  };
  try {
    /** @type {Record<string, number>} */
    const one = {};
    for (const [name, url] of Object.entries(queries)) one[name] = await warmMedian(url);
    for (let i = 1; i < 1_000; i += 1) await served.sandbox?.reset(`mall-${i}`);
    // Creating the malls outlasted the keep-alive timeout: the first request may meet a closed socket.
    await fetch(queries['products/count'], { headers }).catch(() => undefined);
    await collect(); // the garbage of creating 999 malls, not the queries, would be measured otherwise
    for (const [name, url] of Object.entries(queries)) {
      const thousand = await warmMedian(url);
      const at1 = one[name] ?? 0;
      console.log(
        `collection ${name} over HTTP (median of 301): ${at1.toFixed(2)} ms at 1 mall, ${thousand.toFixed(2)} ms at 1,000 malls; ratio ${(thousand / at1).toFixed(2)}`,
      );
    }
  } finally {
    await served.close();
  }
}

await rssPerMall(); // first, while the process holds nothing else
await timeLoad('40,000-category fixture', { categories: categories(40_000) });
await timeLoad('100,000-record fixture (40k categories, 60k products)', {
  categories: categories(40_000),
  products: products(60_000),
});
await p99DuringLoad();
await collectionScaling();
