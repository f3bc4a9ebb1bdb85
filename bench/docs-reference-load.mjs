#!/usr/bin/env node
// Benchmark: how heavy and how fast each API reference page is for a reader on a mid-range phone,
// in Debian's Chromium with DevTools throttling (4× CPU slowdown, 1.6 Mbps down, 750 kbps up,
// 150 ms round trip, cache off): bytes transferred (as sent, compressed) and Largest Contentful
// Paint (the page's plain-HTML intro; the time Redoc's first operation heading appears is printed
// beside it), per page, served by the docs server (build/serve.mjs: brotli, cache headers). The
// baseline, measured in the same run on the same pages, is docs/dist from a plain static server
// (Python's http.server: no compression). Prints both, the ratios, and whether each page keeps the
// budget (≤ 600 kB, LCP ≤ 2.5 s). Needs `npm run docs` first.
//   node bench/docs-reference-load.mjs [--runs 3]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { chromium } from 'playwright-core';
import { startDocsServer } from '../docs/build/serve.mjs';
import { startPlainStaticServer } from '../docs/test/plain-static-server.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const dist = join(import.meta.dirname, '..', 'docs', 'dist');
const pages = apiNames;
const budget = { bytes: 600 * 1000, lcpMs: 2500 };
const profile = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1000 * 1000) / 8,
  uploadBytesPerSecond: (750 * 1000) / 8,
};

/**
 * Loads `url` once, cold and throttled; resolves to the bytes transferred and the LCP.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function load(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.downloadBytesPerSecond,
    uploadThroughput: profile.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  // When Redoc's first operation heading appears: the reference itself, after the plain intro.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('#redoc h2')) {
        /** @type {any} */ (window).redocRenderedAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  // Redoc has rendered once an operation heading is on the page; LCP is final by then.
  await page.locator('#redoc h2').first().waitFor({ timeout: 120_000 });
  await page.waitForTimeout(1000);
  const lcpMs = await page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]?.startTime ?? Number.NaN);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  const redocMs = await page.evaluate(() => /** @type {any} */ (window).redocRenderedAt);
  await context.close();
  return { bytes, lcpMs: Number(lcpMs), redocMs: Number(redocMs) };
}

/** The median of `numbers`. @param {number[]} numbers */
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? Number.NaN;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const docsServer = await startDocsServer({ root: dist, port: 0 });
const baselineServer = await startPlainStaticServer(dist);
let overBudget = false;
process.stdout.write(
  `reference pages, cold, ${profile.cpuSlowdown}× CPU, 1.6 Mbps, ${profile.latencyMs} ms RTT, median of ${runs} runs\n`,
);
for (const name of pages) {
  /** @typedef {{ bytes: number, lcpMs: number, redocMs: number }} Load */
  /** @type {{ docs: Load[], baseline: Load[] }} */
  const measured = { docs: [], baseline: [] };
  for (let run = 0; run < runs; run++) {
    measured.baseline.push(await load(browser, `${baselineServer.url}/${name}/index.html`));
    measured.docs.push(await load(browser, `${docsServer.url}/${name}/index.html`));
  }
  /** @param {Load[]} loads @returns {Load} */
  const typical = (loads) => ({
    bytes: median(loads.map((entry) => entry.bytes)),
    lcpMs: median(loads.map((entry) => entry.lcpMs)),
    redocMs: median(loads.map((entry) => entry.redocMs)),
  });
  const docs = typical(measured.docs);
  const baseline = typical(measured.baseline);
  const within = docs.bytes <= budget.bytes && docs.lcpMs <= budget.lcpMs;
  if (!within) overBudget = true;
  process.stdout.write(
    `${name}: ${(docs.bytes / 1000).toFixed(0)} kB, LCP ${(docs.lcpMs / 1000).toFixed(2)} s, ` +
      `Redoc rendered ${(docs.redocMs / 1000).toFixed(2)} s ` +
      `(plain static server: ${(baseline.bytes / 1000).toFixed(0)} kB, LCP ${(baseline.lcpMs / 1000).toFixed(2)} s, ` +
      `Redoc ${(baseline.redocMs / 1000).toFixed(2)} s; ratios ${(docs.bytes / baseline.bytes).toFixed(2)} bytes, ` +
      `${(docs.lcpMs / baseline.lcpMs).toFixed(2)} LCP, ${(docs.redocMs / baseline.redocMs).toFixed(2)} Redoc) ` +
      `budget ≤ ${budget.bytes / 1000} kB, ≤ ${budget.lcpMs / 1000} s: ${within ? 'within' : 'OVER'}\n`,
  );
}
await browser.close();
await docsServer.close();
baselineServer.close();
if (overBudget) process.exitCode = 1;
