#!/usr/bin/env node
// Benchmark: how long the analytics mock in sandbox mode takes to answer a report over a whole
// year, simulated afresh (a range that long is never cached), against the same report over one
// month on a fresh sandbox, measured in this run: the ratio shows whether simulation cost grows
// linearly with the days asked for (a month is 1/12 of the year, so about 12x is linear). Each
// figure is the median of several fresh sandboxes (seeds 11, 12, …), over HTTP with the rate limit
// out of the way, after a one-day warm-up request (validators compile on first use). The claim "a
// year in well under a second" is measured here, not asserted in a unit test.
//   node bench/analytics-simulation.mjs [--runs 5]
import { parseArgs } from 'node:util';
import { issueDemoTokens, startMockServer } from '@mall-api/mock-server';
import { demoAuthority } from './support/checkout-mock.mjs';
import { unlimitedLimiter } from './support/unlimited-limiter.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);

/**
 * Starts a fresh analytics sandbox of `seed`, times one GET of `/pages/view` over the range, and
 * returns the ms it took and the page views counted.
 * @param {number} seed
 * @param {string} startDate
 * @param {string} endDate
 */
async function timeReport(seed, startDate, endDate) {
  const authority = await demoAuthority();
  const mock = await startMockServer({
    api: 'analytics',
    port: 0,
    authority,
    limiter: unlimitedLimiter('analytics'),
    sandbox: { seed },
  });
  try {
    const token = (await issueDemoTokens(authority, ['mall.read_analytics'])).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const report = (/** @type {string} */ from, /** @type {string} */ to) =>
      fetch(`${mock.url}/pages/view?mall_id=demomall&start_date=${from}&end_date=${to}&limit=1000`, {
        headers,
      });
    await (await report('2025-06-01', '2025-06-01')).arrayBuffer();
    const started = performance.now();
    const response = await report(startDate, endDate);
    /** @type {{ view?: { count: number }[] }} */
    const body = await response.json();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`/pages/view answered ${response.status}`);
    return { ms, views: (body.view ?? []).reduce((sum, row) => sum + Number(row.count), 0) };
  } finally {
    await mock.close();
  }
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const year = [];
const month = [];
for (let i = 0; i < runs; i++) {
  year.push(await timeReport(11 + i, '2026-01-01', '2026-12-31'));
  month.push(await timeReport(11 + i, '2026-01-01', '2026-01-31'));
}
const yearMs = median(year.map((r) => r.ms));
const monthMs = median(month.map((r) => r.ms));
process.stdout.write(
  `analytics sandbox, /pages/view simulated afresh (median of ${runs} seeds, Node ${process.version})\n` +
    `  one month   ${monthMs.toFixed(0).padStart(6)} ms   ${median(month.map((r) => r.views))} page views\n` +
    `  whole year  ${yearMs.toFixed(0).padStart(6)} ms   ${median(year.map((r) => r.views))} page views\n` +
    `  ratio year / month: ${(yearMs / monthMs).toFixed(1)}x (12x: cost grows with the days; less: a fixed cost per request dominates)\n`,
);
