#!/usr/bin/env node
// Benchmark: the admin mock in sandbox mode at 10k products, in memory and on SQLite. Creates
// 10,000 products over HTTP (16 in flight), then lists them (limit 100 with a price filter and a
// sort, 16 in flight: whole records, then three attributes with `fields`, then the filtered
// count), and prints create, list and count requests per second with the process RSS. The
// rate limit is lifted (a billion calls a minute) so the figures measure the sandbox, not the limiter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueDemoTokens, startMockServer } from '@mall-api/mock-server';
import { demoAuthority } from './support/checkout-mock.mjs';
import { unlimitedLimiter } from './support/unlimited-limiter.mjs';

const products = 10_000;
const lists = 2_000;
const inFlight = 16;
const scopes = ['mall.read_product', 'mall.write_product', 'mall.read_category', 'mall.write_category'];

/**
 * Runs `work(0 … count-1)` with {@link inFlight} calls in flight; returns calls per second.
 * @param {number} count
 * @param {(index: number) => Promise<void>} work
 */
async function pool(count, work) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/**
 * Starts an admin sandbox mock on `store`, fills and lists it, and prints one result line.
 * @param {string} label
 * @param {NonNullable<import('@mall-api/mock-server').SandboxOptions['store']>} store
 */
async function run(label, store) {
  const authority = await demoAuthority();
  const mock = await startMockServer({
    api: 'admin',
    port: 0,
    authority,
    limiter: unlimitedLimiter('admin'),
    sandbox: { store },
  });
  const headers = {
    authorization: `Bearer ${(await issueDemoTokens(authority, scopes, 'benchmall')).access_token}`,
    'content-type': 'application/json',
  };
  const createRate = await pool(products, async (i) => {
    const response = await fetch(`${mock.url}/api/v2/admin/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        shop_no: 1,
        request: {
          product_name: `Bench product ${i}`,
          supply_price: '1000.00',
          price: `${1000 + (i % 500) * 100}.00`,
          display: 'T',
          selling: 'T',
        },
      }),
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    await response.arrayBuffer();
  });
  const query = 'price_min=20000&sort=product_name&order=desc&limit=100';
  /** @param {string} path */
  const get = (path) => async () => {
    const response = await fetch(`${mock.url}/api/v2/admin/${path}`, { headers });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await response.arrayBuffer();
  };
  const listRate = await pool(lists, (i) => get(`products?${query}&offset=${(i % 50) * 100}`)());
  const fieldsRate = await pool(lists, (i) =>
    get(`products?${query}&offset=${(i % 50) * 100}&fields=product_name,price`)(),
  );
  const countRate = await pool(lists, get('products/count?price_min=20000'));
  const countResponse = await fetch(`${mock.url}/api/v2/admin/products/count`, { headers });
  const { count } = await countResponse.json();
  const rss = process.memoryUsage().rss / 2 ** 20;
  await mock.close();
  console.log(
    `${label.padEnd(8)} products ${count}  create ${createRate.toFixed(0)} req/s  list(100, filtered, sorted) ${listRate.toFixed(0)} req/s  same with fields ${fieldsRate.toFixed(0)} req/s  count ${countRate.toFixed(0)} req/s  RSS ${rss.toFixed(0)} MiB`,
  );
}

console.log(
  `sandbox throughput: ${products} creates, then ${lists} list requests, ${inFlight} in flight (Node ${process.version})`,
);
await run('memory', 'memory');
const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
try {
  await run('sqlite', { dataDir });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
