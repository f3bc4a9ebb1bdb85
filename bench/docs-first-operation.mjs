#!/usr/bin/env node
// Benchmark: how soon a reader on a phone sees the reference and can use it. Builds the site as it
// is now into a temporary folder, and a baseline: by default the same site with `--no-prerender`
// (Redoc renders in the browser, as the site did before the references were prerendered), or,
// with `--baseline <folder>`, a site already built there (an earlier commit's docs/dist, say). Then
// loads each API reference cold from the docs server (build/serve.mjs) in Debian's Chromium on the
// phone profile: a 390×844 viewport and 4× CPU slowdown (CDP `Emulation.setCPUThrottlingRate`),
// alternating the two sites run by run. Per page it prints the medians of:
// - "first operation visible": the first frame that lays out an operation heading;
// - "usable": a reader's first taps answered — the bench taps the round menu button until the menu
//   opens, then the menu's first section until the page is there (its address in the URL), then
//   the first "Try it" until the console's dialog is open, each tap as soon as its control is on
//   the page and again every 0.7 s while it goes unanswered; the time the dialog opened;
// - "first tab answered": then, the console closed, the bench taps one of Redoc's own controls (a
//   code-sample tab of the first operation, the same way) and times how long after its first tap
//   it was selected — where Redoc starts on demand, this is what starting it costs the reader;
// - "Redoc live": Redoc hydrated (or rendered) the reference (`data-redoc-ready`);
// and the ratios of the current site to the baseline. Each page is loaded once untimed first, so
// the docs server has compressed its files (as a deployed site has them) before the timed loads. Needs `npm run build` (the specs bundled, the
// libraries the docs build reads).
// `--current <folder>` measures a site already built there instead of building one, `--api <name>`
// (repeatable) only those references.
//   node bench/docs-first-operation.mjs [--runs 3] [--baseline <folder>] [--current <folder>] [--api admin]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { chromium } from 'playwright-core';
import { startDocsServer } from '../docs/build/serve.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    current: { type: 'string' },
    api: { type: 'string', multiple: true },
  },
});
const runs = Number(values.runs);
const root = join(import.meta.dirname, '..');
const profile = { viewport: { width: 390, height: 844 }, cpuSlowdown: 4 };
const menuButton = '#redoc .redoc-wrap > .menu-content + div';

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
 * Repeats `act` until `done` (evaluated in the page) holds: a reader tapping again what did not
 * answer.
 * @param {import('playwright-core').Page} page
 * @param {string} done a JavaScript expression
 * @param {() => Promise<unknown>} act
 */
async function until(page, done, act) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await page.evaluate(done)) return;
    await act().catch(() => undefined);
    await page.waitForFunction(done, null, { timeout: 700 }).catch(() => undefined);
  }
  throw new Error(`never answered: ${done}`);
}

/** @typedef {{ operationMs: number, usableMs: number, liveMs: number, tabMs?: number }} Load */

/**
 * Loads `url` once, cold, on the phone profile, and taps through the menu to a Try it dialog;
 * resolves to the times (ms from navigation start) described above.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @returns {Promise<Load>}
 */
async function load(browser, url) {
  const context = await browser.newContext({ viewport: profile.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  // Checked every frame, before it is painted.
  await page.addInitScript(() => {
    const marks = /** @type {any} */ (window);
    const check = () => {
      const now = performance.now();
      if (
        marks.operationAt === undefined &&
        document.querySelector('[id^="operation/"] h2')?.getClientRects().length
      )
        marks.operationAt = now;
      if (marks.dialogAt === undefined && document.querySelector('dialog.console[open]'))
        marks.dialogAt = now;
      if (marks.liveAt === undefined && document.querySelector('#redoc[data-redoc-ready]'))
        marks.liveAt = now;
      if (marks.dialogAt === undefined || marks.liveAt === undefined) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  const menuOpen = `(menu => !!menu && getComputedStyle(menu).display !== 'none')(document.querySelector('#redoc .menu-content'))`;
  await until(page, menuOpen, () => page.locator(menuButton).click({ timeout: 5_000 }));
  const section = page.locator('#redoc .menu-content li[data-item-id^="tag/"]').first();
  await section.waitFor({ state: 'attached' });
  const target = await section.getAttribute('data-item-id');
  await until(page, `location.hash === ${JSON.stringify(`#${target}`)}`, async () => {
    if (!(await page.evaluate(menuOpen))) await page.locator(menuButton).click({ timeout: 5_000 });
    await section.locator('label').first().click({ timeout: 5_000 });
  });
  await until(page, 'window.dialogAt !== undefined', async () => {
    // A menu still open covers the page: close it first, as a reader would.
    if (await page.evaluate(menuOpen)) await page.locator(menuButton).click({ timeout: 5_000 });
    await page.locator('button.try-it').first().click({ timeout: 5_000 });
  });
  await page.locator('dialog.console button.console-close').click({ timeout: 5_000 });
  // Then one of Redoc's own controls: the first operation's second code-sample tab.
  const tab = page.locator('#redoc [id^="operation/"] [role="tab"][aria-selected="false"]').first();
  await tab.evaluate((element) => element.setAttribute('data-bench-tab', ''));
  const tabAt = await page.evaluate(() => performance.now());
  await until(
    page,
    `document.querySelector('[data-bench-tab]')?.getAttribute('aria-selected') === 'true'`,
    () => tab.click({ timeout: 5_000 }),
  );
  const tabAnsweredAt = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => /** @type {any} */ (window).liveAt !== undefined, null, {
    timeout: 240_000,
  });
  const marks = await page.evaluate(() => {
    const marks = /** @type {any} */ (window);
    return {
      operationMs: Number(marks.operationAt),
      usableMs: Number(marks.dialogAt),
      liveMs: Number(marks.liveAt),
    };
  });
  await context.close();
  return { ...marks, tabMs: tabAnsweredAt - tabAt };
}

/**
 * Loads `url` once, unthrottled and untimed, until the network is idle (the reference's deferred
 * parts fetched too).
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function warm(browser, url) {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'networkidle', timeout: 240_000 });
  await page.close();
}

/** The median of `numbers`. @param {number[]} numbers */
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? Number.NaN;
/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
/** @param {Load[]} loads @returns {Load} */
const typical = (loads) => ({
  operationMs: median(loads.map((entry) => entry.operationMs)),
  usableMs: median(loads.map((entry) => entry.usableMs)),
  liveMs: median(loads.map((entry) => entry.liveMs)),
  tabMs: median(loads.map((entry) => entry.tabMs ?? Number.NaN)),
});

const current = values.current ? resolve(values.current) : await buildSite([]);
const baselineRoot = values.baseline ? resolve(values.baseline) : await buildSite(['--no-prerender']);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const now = await startDocsServer({ root: current, port: 0 });
const before = await startDocsServer({ root: baselineRoot, port: 0 });
try {
  process.stdout.write(
    `reference pages, cold, ${profile.viewport.width}×${profile.viewport.height}, ${profile.cpuSlowdown}× CPU, ` +
      `median of ${runs} runs; baseline: ${values.baseline ? baselineRoot : 'the same site built with --no-prerender'}\n`,
  );
  for (const name of values.api ?? apiNames) {
    // The docs server compresses a file on its first request and keeps it: one untimed load of
    // each page first, so the timed loads meet a server as a deployed site's (files compressed
    // ahead), not the compression of 0.4–1.6 MB files on this machine's CPU.
    for (const site of [before, now]) await warm(browser, `${site.url}/${name}/index.html`);
    /** @type {{ now: Load[], before: Load[] }} */
    const measured = { now: [], before: [] };
    for (let run = 0; run < runs; run++) {
      measured.before.push(await load(browser, `${before.url}/${name}/index.html`));
      measured.now.push(await load(browser, `${now.url}/${name}/index.html`));
    }
    const [after, baseline] = [typical(measured.now), typical(measured.before)];
    const row = (/** @type {string} */ label, /** @type {keyof Load} */ key) =>
      `${label} ${seconds(after[key] ?? Number.NaN)} (baseline ${seconds(baseline[key] ?? Number.NaN)}, ratio ${((after[key] ?? Number.NaN) / (baseline[key] ?? Number.NaN)).toFixed(2)})`;
    process.stdout.write(
      `${name}: ${row('first operation visible', 'operationMs')}; ${row('usable', 'usableMs')}; ${row('first tab answered after its tap', 'tabMs')}; ${row('Redoc live', 'liveMs')}\n`,
    );
  }
} finally {
  await browser.close();
  await now.close();
  await before.close();
  if (!values.current) await rm(current, { recursive: true, force: true });
  if (!values.baseline) await rm(baselineRoot, { recursive: true, force: true });
}
