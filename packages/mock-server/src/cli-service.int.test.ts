// `mall-api-mock` as a deployed service, spawning the real command: a full --help with every
// option, its default and its environment variable; --version from package.json; usage mistakes
// exit 2; the three APIs on chosen ports (flags and environment) from one process sharing one
// OAuth authority, each answering /__health and /__ready without credentials; JSON logs with no
// secret; --fixtures DIR registering named fixtures; and SIGTERM finishing a request in flight
// (slowed by a fault) before exiting 0.
// An integration test (it starts the command at least once per case, several of them serving):
// `npm test` and CI run it, the fast suite leaves it out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuthorization } from '@mall-api/auth';
import { describe, expect, it } from 'vitest';
import { platformOAuthSettings } from './oauth/platform-oauth.js';
import { demoToken, exitCode, runCli, startCli, urlOf } from './testing/cli-process.js';

const oauth = await platformOAuthSettings();

/** A TCP port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const stopped = async (child: import('node:child_process').ChildProcess) => {
  const exited = exitCode(child);
  child.kill('SIGTERM');
  return exited;
};

describe('mall-api-mock --help, --version and usage errors', () => {
  it('lists every option with its default and environment variable', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const line of [
      /--ports API=N,….*\(default: collection=4010,admin=4011,analytics=4012\) \[MALL_API_MOCK_PORTS\]/,
      /--admin-port N.*\(default: 4011\) \[MALL_API_MOCK_ADMIN_PORT\]/,
      /--max-malls N.*\(default: 200\) \[MALL_API_MOCK_MAX_MALLS\]/,
      /--mall-idle-minutes N.*\(default: 60\)/,
      /--journal-mb N.*\(default: 128\)/,
      /--log-format text\|json.*\(default: text\) \[MALL_API_MOCK_LOG_FORMAT\]/,
      /--rate-limit on\|off +off: .*load tests only.*\(default: on\) \[MALL_API_MOCK_RATE_LIMIT\]/,
      /--fixtures DIR.*\[MALL_API_MOCK_FIXTURES\]/,
      /--redis URL.*\(default: in this process\) \[MALL_API_MOCK_REDIS\]/,
      /--redis-prefix P.*\(default: mall-api-mock:\) \[MALL_API_MOCK_REDIS_PREFIX\]/,
      /--shutdown-timeout SECONDS.*\(default: 10\)/,
      /--version +print the version$/m,
    ])
      expect(stdout).toMatch(line);
  });

  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it.each([
    [['--no-such-flag'], /unknown option --no-such-flag\n/],
    [['--prot', '5000'], /unknown option --prot \(did you mean --port\?\)/],
    [['--ports', 'collection=99999'], /--ports collection must be a TCP port number, got 99999/],
    [['--ports', 'payments=4010'], /--ports names an unknown API: payments/],
    [
      ['--admin-port', '4500', '--analytics-port', '4500'],
      /the admin and analytics APIs cannot share port 4500/,
    ],
    [['--log-format', 'xml'], /--log-format must be text or json, got xml/],
    [['--max-malls', '0'], /--max-malls must be a whole number from 1/],
    [['--rate-limit', 'unlimited'], /--rate-limit must be on or off, got unlimited/],
  ])('exits 2 with a message on %j', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('--help');
  });

  it('reads options from the environment, and exits 2 on a bad one', async () => {
    const { code, stderr } = await runCli([], { env: { MALL_API_MOCK_QUIET: 'maybe' } });
    expect(code).toBe(2);
    expect(stderr).toContain('MALL_API_MOCK_QUIET must be true or false, got maybe');
  });
});

describe('mall-api-mock as a service', () => {
  it('serves the three APIs on chosen ports with one OAuth authority and health endpoints', async () => {
    const [collection, admin, analytics] = [await freePort(), await freePort(), await freePort()];
    const { child, ready } = startCli(['--ports', `collection=${collection},admin=${admin}`, '--quiet'], {
      env: { MALL_API_MOCK_ANALYTICS_PORT: String(analytics) },
    });
    const output = await ready;
    try {
      expect(urlOf(output, 'collection')).toBe(`http://127.0.0.1:${collection}`);
      expect(urlOf(output, 'admin')).toBe(`http://127.0.0.1:${admin}`);
      expect(urlOf(output, 'analytics')).toBe(`http://127.0.0.1:${analytics}`);
      for (const port of [collection, admin, analytics]) {
        const live = await fetch(`http://127.0.0.1:${port}/__health`);
        expect([live.status, await live.json()]).toEqual([200, { status: 'live' }]);
        const readiness = await fetch(`http://127.0.0.1:${port}/__ready`);
        expect([readiness.status, await readiness.json()]).toEqual([200, { status: 'ready' }]);
      }
      const token = await demoToken(`http://127.0.0.1:${admin}`, oauth.scopes.join(','));
      const report = await fetch(
        `http://127.0.0.1:${analytics}/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-02`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(report.status).toBe(200);
    } finally {
      expect(await stopped(child)).toBe(0);
    }
  });

  it('logs one JSON object per request with no secret', async () => {
    const { child, ready, output } = startCli(['admin', '--port', '0', '--log-format', 'json']);
    const url = urlOf(await ready, 'admin');
    let token = '';
    try {
      token = await demoToken(url);
      await fetch(`${url}/api/v2/admin/categories?limit=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
    } finally {
      expect(await stopped(child)).toBe(0);
    }
    const lines = output().trim().split('\n');
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((event) => event.event === 'request').map((event) => event.path)).toEqual([
      '/api/v2/oauth/authorize',
      '/api/v2/oauth/token',
      '/api/v2/admin/categories',
    ]);
    const all = output();
    for (const secret of [token, 'demo-app-secret', 'code=', 'Bearer', 'limit=1'])
      expect(all).not.toContain(secret);
  });

  it('with MALL_API_MOCK_RATE_LIMIT=off says so at start and refuses no call past the limit, each answer with the headers of a first call', async () => {
    const { child, ready } = startCli(['collection', '--port', '0', '--quiet'], {
      env: { MALL_API_MOCK_RATE_LIMIT: 'off' },
    });
    try {
      const output = await ready;
      expect(output).toContain('rate limits off: no call is counted or refused (load testing only)');
      const url = urlOf(output, 'collection');
      const headers = { authorization: basicAuthorization('demo-partner', 'demo-partner-secret') };
      // The collection API admits 40 calls a minute per client address (its spec's x-rate-limit).
      const answers = [];
      for (let i = 0; i < 45; i++) answers.push(await fetch(`${url}/api/shops`, { headers }));
      expect(answers.map((answer) => answer.status)).toEqual(Array(45).fill(200));
      expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(
        Array(45).fill('39'),
      );
    } finally {
      expect(await stopped(child)).toBe(0);
    }
  });

  it('registers the fixtures of --fixtures DIR by file name for a reset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mall-fixtures-'));
    writeFileSync(
      join(dir, 'three-categories.json'),
      JSON.stringify({
        categories: [{ category_name: 'A' }, { category_name: 'B' }, { category_name: 'C' }],
      }),
    );
    const { child, ready } = startCli(['admin', '--port', '0', '--quiet'], {
      env: { MALL_API_MOCK_FIXTURES: dir },
    });
    try {
      const url = urlOf(await ready, 'admin');
      const reset = await fetch(`${url}/__mock/malls/fixture-mall/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: { fixture: 'three-categories' } }),
      });
      expect(await reset.json()).toMatchObject({ ok: true, counts: { categories: 3 } });
    } finally {
      expect(await stopped(child)).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    const { child, ready } = startCli(['collection', '--port', '0', '--quiet', '--shutdown-timeout', '5']);
    const url = urlOf(await ready, 'collection');
    const fault = await fetch(`${url}/__mock/malls/demomall/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { operationId: 'listShops' }, action: { kind: 'delay', minMs: 1500 } }),
    });
    expect(fault.status).toBe(201);
    const slow = fetch(`${url}/api/shops`, {
      headers: { authorization: basicAuthorization('demo-partner', 'demo-partner-secret') },
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exited = exitCode(child);
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(`${url}/__health`)).rejects.toThrow();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { shops: unknown[] }).shops.length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
  });
});
