// `mall-api-mock --store postgres://…` against a real PostgreSQL: two mock processes on one
// database act on the same malls (a write on one is read on the other), `MALL_API_MOCK_STORE`
// works like the flag, a database unreachable at start is waited for in standby (`/__ready` 503,
// SIGTERM still exits 0), and while the database is stopped a call answers 503 with the error
// envelope (a control API reset too, changing nothing) and `/__ready` says not ready, both
// recovering when it is back; the log never shows the URL's password.

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoToken, exitCode, runCli, startCli, urlOf } from '../testing/cli-process.js';
import { until } from '../testing/replica-set.js';

let server: TestPostgresServer;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = server.url.replace('postgres@', 'postgres:not-for-logs@');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here
type Body = Record<string, any>;

const categories = async (base: string, token: string) => {
  const response = await fetch(`${base}/api/v2/admin/categories?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Body };
};

describe('mall-api-mock --store postgres://…', { timeout: 90_000 }, () => {
  it('documents --store and MALL_API_MOCK_STORE in --help', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /--store STORE\s+where the malls live: memory, or a postgres:\/\/.*\[MALL_API_MOCK_STORE\]/,
    );
  });

  it('refuses a store that is neither memory nor a PostgreSQL URL, and one given with --data-dir', async () => {
    expect((await runCli(['--store', 'redis://127.0.0.1'])).stderr).toMatch(
      /--store must be memory or a postgres:\/\/ URL/,
    );
    const both = await runCli(['--store', url, '--data-dir', '/tmp/never']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--store and --data-dir exclude each other/);
  });

  it('waits in standby when the database cannot be reached at start, saying why without the password', async () => {
    const waiting = startCli([
      '--store',
      'postgres://postgres:not-for-logs@127.0.0.1:9/postgres',
      '--port',
      '0',
      'admin',
    ]);
    try {
      await until(async () =>
        /waiting for postgres at 127\.0\.0\.1:9 \(ECONNREFUSED\)/.test(waiting.output()),
      );
      expect((await fetch(`${urlOf(waiting.output(), 'admin')}/__ready`)).status).toBe(503);
      expect(waiting.output()).not.toContain('not-for-logs');
    } finally {
      const exited = exitCode(waiting.child);
      waiting.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('shares the malls between replicas, answers 503 while the database is down, and recovers', async () => {
    const first = startCli(['admin', '--port', '0', '--store', url]);
    const second = startCli(['admin', '--port', '0'], { env: { MALL_API_MOCK_STORE: url } });
    try {
      const [a, b] = [urlOf(await first.ready, 'admin'), urlOf(await second.ready, 'admin')];
      expect(first.output()).toContain(`data in PostgreSQL at 127.0.0.1:${server.port}/postgres`);
      const [tokenA, tokenB] = [await demoToken(a), await demoToken(b)];
      const created = await fetch(`${a}/api/v2/admin/categories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json' },
        body: JSON.stringify({ request: { category_name: 'made on the first replica' } }),
      });
      expect(created.status).toBe(201);
      const names = (await categories(b, tokenB)).body.categories.map(
        (c: { category_name: string }) => c.category_name,
      );
      expect(names).toContain('made on the first replica');

      await server.pause();
      try {
        const down = await categories(a, tokenA);
        expect(down.status).toBe(503);
        expect(down.body).toEqual({
          error: {
            code: 'service_unavailable',
            message: expect.stringMatching(/store is unavailable/),
            more_info: {},
          },
        });
        const ready = await fetch(`${a}/__ready`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toEqual({ status: 'store-unavailable' });
        expect((await fetch(`${a}/__health`)).status).toBe(200);
        const reset = await fetch(`${a}/__mock/malls/demo/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to: 'empty' }),
        });
        expect(reset.status).toBe(503);
        expect(((await reset.json()) as Body).error.code).toBe('service_unavailable');
      } finally {
        await server.start();
      }
      expect((await fetch(`${a}/__ready`)).status).toBe(200);
      const back = await categories(a, tokenA);
      expect(back.status).toBe(200);
      expect(back.body.categories.map((c: { category_name: string }) => c.category_name)).toEqual(names);
      expect(first.output().match(/PostgreSQL is unavailable \(.+\)/g)).toHaveLength(1);
      expect(first.output()).toContain('PostgreSQL is back');
      expect(first.output()).not.toContain('not-for-logs');
    } finally {
      for (const { child } of [first, second]) {
        const exited = exitCode(child);
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
