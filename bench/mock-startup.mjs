#!/usr/bin/env node
// Benchmark: time from starting `mall-api-mock` (all three APIs in one process) until each API has
// answered its first 200: collection with the demo Basic credentials, admin through its OAuth
// token endpoint (authorize, then exchange the code), analytics with that token. Repeats and
// prints each run and the median.
//   node bench/mock-startup.mjs [--runs 5]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const cli = join(import.meta.dirname, '..', 'packages/mock-server/dist/cli.js');
const basic = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;
const app = `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`;
const redirectUri = 'http://127.0.0.1:9/callback';

/**
 * Polls `probe` every 5 ms until it answers something truthy (a refused connection counts as no).
 * @template T
 * @param {() => Promise<T | false | undefined>} probe
 * @returns {Promise<T>}
 */
const until = async (probe) => {
  for (;;) {
    try {
      const result = await probe();
      if (result) return result;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

async function oneRun() {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, '--quiet'], { stdio: 'ignore' });
  try {
    const collection = until(
      async () =>
        (await fetch('http://127.0.0.1:4010/api/shops', { headers: { authorization: basic } })).status ===
          200 && performance.now() - started,
    );
    const token = await until(async () => {
      const authorize = await fetch(
        `http://127.0.0.1:4011/api/v2/oauth/authorize?response_type=code&client_id=demo-app&scope=mall.read_analytics&state=s&redirect_uri=${encodeURIComponent(redirectUri)}`,
        { redirect: 'manual' },
      );
      const code = new URL(authorize.headers.get('location') ?? 'http://x/').searchParams.get('code');
      if (!code) return undefined;
      const response = await fetch('http://127.0.0.1:4011/api/v2/oauth/token', {
        method: 'POST',
        headers: { authorization: app, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
      });
      return (
        response.status === 200 && {
          token: (await response.json()).access_token,
          at: performance.now() - started,
        }
      );
    });
    const analytics = await until(
      async () =>
        (
          await fetch(
            'http://127.0.0.1:4012/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-02',
            {
              headers: { authorization: `Bearer ${token.token}` },
            },
          )
        ).status === 200 && performance.now() - started,
    );
    return {
      collection: await collection,
      admin: token.at,
      analytics,
      all: Math.max(await collection, token.at, analytics),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const runs = [];
for (let i = 0; i < Number(values.runs); i++) {
  const result = await oneRun();
  runs.push(result);
  process.stdout.write(
    `run ${i + 1}: collection ${result.collection.toFixed(0)} ms, admin ${result.admin.toFixed(0)} ms, analytics ${result.analytics.toFixed(0)} ms\n`,
  );
}
const sorted = runs.map((r) => r.all).sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
if (median !== undefined)
  process.stdout.write(`all three ready (median of ${runs.length}): ${median.toFixed(0)} ms\n`);
