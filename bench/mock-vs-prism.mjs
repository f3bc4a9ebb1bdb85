#!/usr/bin/env node
// Benchmark: our collection mock (Prism's engine + our front layer, rate limit raised out of the
// way) against the stock `prism mock` CLI serving the same bundled spec, with the same request mix
// of every GET operation. Prints requests/s and p99 latency of each and the ratio from this run.
//   node bench/mock-vs-prism.mjs [--seconds 10] [--connections 50]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, startProcess } from './support/processes.mjs';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } },
});
const root = join(import.meta.dirname, '..');
const authorization = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;
const mix = [
  '/api/shops?shop_language=ko_KR&limit=20',
  '/api/products?collection_product_category=C100210&shop_grade=black,purple&limit=50',
  '/api/products/count?collection_product_category=C100210&price_min=10000&price_max=50000',
  '/api/products/standardtags?limit=10',
  '/api/storeproducts?store_id=blueharbor&sort=price&order=desc',
].map((path) => ({ method: 'GET', path, headers: { authorization } }));

const answers = (url) => async () =>
  (await fetch(`${url}${mix[0].path}`, { headers: mix[0].headers })).status === 200;

async function measure(label, url) {
  const result = await autocannon({
    url,
    requests: mix,
    connections: Number(values.connections),
    duration: Number(values.seconds),
  });
  const non2xx = result.non2xx + result.errors;
  return { label, requestsPerSecond: result.requests.average, p99: result.latency.p99, non2xx };
}

const ours = await (async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    process.execPath,
    [join(root, 'bench/support/serve-mock.mjs'), 'collection', String(port)],
    answers(url),
  );
  try {
    return await measure('mall-api mock', url);
  } finally {
    await server.stop();
  }
})();
const prism = await (async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    join(root, 'node_modules/.bin/prism'),
    ['mock', '-h', '127.0.0.1', '-p', String(port), join(root, 'specs/dist/collection.openapi.yaml')],
    answers(url),
  );
  try {
    return await measure('stock prism mock CLI', url);
  } finally {
    await server.stop();
  }
})();

const rows = [ours, prism].map(
  (r) =>
    `${r.label.padEnd(22)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99).padStart(4)} ms   non-2xx/errors ${r.non2xx}`,
);
process.stdout.write(
  `${rows.join('\n')}\nratio (ours / prism): ${(ours.requestsPerSecond / prism.requestsPerSecond).toFixed(2)}x\n`,
);
