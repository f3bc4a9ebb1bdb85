#!/usr/bin/env node
// Benchmark: how soon a reader on a phone sees the reference, before and after the references were
// prerendered. Builds the site twice into temporary folders, as it is now (Redoc's server-side
// rendering: every operation in the page's HTML, hydrated in the browser) and with
// `--no-prerender` (Redoc renders in the browser, as the site did before), then loads each API
// reference cold from the docs server (build/serve.mjs) in Debian's Chromium on the phone profile:
// a 390×844 viewport and 4× CPU slowdown (CDP `Emulation.setCPUThrottlingRate`). Per page it prints
// the median time until the first operation heading is laid out on the page ("first operation
// visible") and until the first "Try it" button is there (the page usable: Redoc live, the menu
// and console wired), for both builds, and their ratios. Needs `npm run build` (the specs bundled,
// the libraries the docs build reads).
//   node bench/docs-first-operation.mjs [--runs 3]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { chromium } from 'playwright-core';
import { startDocsServer } from '../docs/build/serve.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const root = join(import.meta.dirname, '..');
const profile = { viewport: { width: 390, height: 844 }, cpuSlowdown: 4 };

/**
 * Builds the docs site into a new temporary folder.
 * @param {string[]} flags
 */
async function buildSite(flags) {
  const out = await mkdtemp(join(tmpdir(), 'mall-api-docs-bench-'));
  execFileSync(process.execPath, [join(root, 'docs', 'build', 'build-site.mjs'), '--out', out, ...flags], {
    cwd: root,
    stdio: 'ignore',
  });
  return out;
}

/**
 * Loads `url` once, cold, on the phone profile; resolves to when the first operation heading was
 * laid out and when the first Try it button appeared (ms from navigation start).
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function load(browser, url) {
  const context = await browser.newContext({ viewport: profile.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  // Checked every frame, before it is painted: the first frame that lays out an operation heading.
  await page.addInitScript(() => {
    const marks = /** @type {any} */ (window);
    const check = () => {
      if (
        marks.operationAt === undefined &&
        document.querySelector('[id^="operation/"] h2')?.getClientRects().length
      )
        marks.operationAt = performance.now();
      if (marks.tryItAt === undefined && document.querySelector('button.try-it'))
        marks.tryItAt = performance.now();
      if (marks.tryItAt === undefined) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.locator('button.try-it').first().waitFor({ state: 'attached', timeout: 120_000 });
  await page.waitForFunction(() => /** @type {any} */ (window).tryItAt !== undefined);
  const marks = await page.evaluate(() => ({
    operationMs: Number(/** @type {any} */ (window).operationAt),
    usableMs: Number(/** @type {any} */ (window).tryItAt),
  }));
  await context.close();
  return marks;
}

/** The median of `numbers`. @param {number[]} numbers */
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? Number.NaN;
/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

const prerendered = await buildSite([]);
const clientRendered = await buildSite(['--no-prerender']);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const now = await startDocsServer({ root: prerendered, port: 0 });
const before = await startDocsServer({ root: clientRendered, port: 0 });
try {
  process.stdout.write(
    `reference pages, cold, ${profile.viewport.width}×${profile.viewport.height}, ${profile.cpuSlowdown}× CPU, median of ${runs} runs\n`,
  );
  for (const name of apiNames) {
    /** @type {{ now: { operationMs: number, usableMs: number }[], before: { operationMs: number, usableMs: number }[] }} */
    const measured = { now: [], before: [] };
    for (let run = 0; run < runs; run++) {
      measured.before.push(await load(browser, `${before.url}/${name}/index.html`));
      measured.now.push(await load(browser, `${now.url}/${name}/index.html`));
    }
    const typical = (/** @type {{ operationMs: number, usableMs: number }[]} */ loads) => ({
      operationMs: median(loads.map((entry) => entry.operationMs)),
      usableMs: median(loads.map((entry) => entry.usableMs)),
    });
    const [after, baseline] = [typical(measured.now), typical(measured.before)];
    process.stdout.write(
      `${name}: first operation visible ${seconds(after.operationMs)} (before ${seconds(baseline.operationMs)}, ` +
        `ratio ${(after.operationMs / baseline.operationMs).toFixed(2)}); usable ${seconds(after.usableMs)} ` +
        `(before ${seconds(baseline.usableMs)}, ratio ${(after.usableMs / baseline.usableMs).toFixed(2)})\n`,
    );
  }
} finally {
  await browser.close();
  await now.close();
  await before.close();
  await rm(prerendered, { recursive: true, force: true });
  await rm(clientRendered, { recursive: true, force: true });
}
