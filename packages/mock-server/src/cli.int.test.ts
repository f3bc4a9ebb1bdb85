// The `mall-api-mock` command: it serves, prints its address and demo credentials, rejects bad
// arguments, and stops cleanly on SIGINT and SIGTERM; without the optional @mall-api/sandbox
// installed the example mode still serves and the stateful default says what is missing.
// An integration test (it starts the command at least once per case, several of them serving):
// `npm test` and CI run it, the fast suite leaves it out.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuthorization } from '@mall-api/auth';
import { describe, expect, it } from 'vitest';
import { cli, demoToken, exitCode, runCli, startCli } from './testing/cli-process.js';

const demoBasic = basicAuthorization('demo-partner', 'demo-partner-secret');

/** Preloading it hides the optional packages, as an install without them would. */
const withoutSandbox = ['--import', join(import.meta.dirname, '..', 'test-fixtures', 'without-sandbox.mjs')];

const start = (args: string[], nodeOptions: string[] = []) => startCli(args, { nodeOptions });

describe('mall-api-mock', () => {
  it('is stateful by default: a created category is read back, an unknown one is a 404', async () => {
    const { child, ready } = start(['admin', '--port', '0', '--quiet']);
    const output = await ready;
    try {
      expect(output).toContain('sandbox mode: data in memory, seed 1');
      expect(output).toContain('control API: /__mock/ on every port (loopback only)');
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] as string;
      const headers = { authorization: `Bearer ${await demoToken(url)}` };
      const created = await fetch(`${url}/api/v2/admin/categories`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ shop_no: 1, request: { category_name: 'CLI created' } }),
      });
      const { category } = (await created.json()) as { category: { category_no: number } };
      const read = await fetch(`${url}/api/v2/admin/categories/${category.category_no}`, { headers });
      expect(((await read.json()) as { category: { category_name: string } }).category.category_name).toBe(
        'CLI created',
      );
      expect((await fetch(`${url}/api/v2/admin/categories/987654321`, { headers })).status).toBe(404);
    } finally {
      const exited = exitCode(child);
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('answers from the examples with --examples, and an id the examples lack is a 404', async () => {
    const { child, ready } = start(['admin', '--port', '0', '--quiet', '--examples']);
    const output = await ready;
    try {
      expect(output).toContain('example mode');
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] as string;
      const headers = { authorization: `Bearer ${await demoToken(url)}` };
      const known = await fetch(`${url}/api/v2/admin/categories/44`, { headers });
      expect(((await known.json()) as { category: { category_no: number } }).category.category_no).toBe(44);
      const unknown = await fetch(`${url}/api/v2/admin/categories/28`, { headers });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    } finally {
      const exited = exitCode(child);
      child.kill('SIGTERM');
      await exited;
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('serves the collection API and exits 0 on %s', async (signal) => {
    const { child, ready } = start(['collection', '--port', '0', '--quiet']);
    const output = await ready;
    const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    expect(url).toBeDefined();
    expect(output).toContain('demo-partner:demo-partner-secret');
    const response = await fetch(`${url}/api/shops`, {
      headers: {
        authorization: demoBasic,
      },
    });
    expect(response.status).toBe(200);
    const exited = exitCode(child);
    child.kill(signal);
    expect(await exited).toBe(0);
  });

  it('rejects an unknown API with a message and exit code 2', async () => {
    const child = spawn(process.execPath, [cli, 'nonsense'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exitCode(child)).toBe(2);
    expect(stderr).toContain('unknown API: nonsense');
  });
});

describe('mall-api-mock --workers', () => {
  it('lists --workers in the help with its default of 1 and its environment variable', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /--workers N\s+worker processes serving the same ports .*\(default: 1\) \[MALL_API_MOCK_WORKERS\]/,
    );
  });

  it('refuses two workers on the in-memory store with exit 2, saying why and what to pass', async () => {
    const { code, stdout, stderr } = await runCli(['admin', '--port', '0', '--workers', '2']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--workers 2 needs shared stores');
    expect(stderr).toContain('--store postgres://… and --redis redis://…');
  });

  it('refuses two workers given by MALL_API_MOCK_WORKERS on a SQLite data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mall-api-workers-'));
    try {
      const { code, stderr } = await runCli(['admin', '--port', '0', '--data-dir', dataDir], {
        env: { MALL_API_MOCK_WORKERS: '2' },
      });
      expect(code).toBe(2);
      expect(stderr).toContain('--workers 2 needs shared stores');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a worker count that is not a whole number from 1', async () => {
    const { code, stderr } = await runCli(['admin', '--port', '0', '--workers', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain('--workers must be a whole number from 1 to 256, got 0');
  });
});

describe('mall-api-mock --sandbox', () => {
  it('serves a seeded sandbox mall, says so, and exits 0 on SIGINT', async () => {
    const { child, ready } = start([
      'collection',
      '--port',
      '0',
      '--sandbox',
      '--seed',
      '3',
      '--shops',
      '2',
      '--global-edition',
      '--quiet',
    ]);
    const output = await ready;
    expect(output).toContain('sandbox mode: data in memory, seed 3, 2 shops, global edition');
    const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    const response = await fetch(`${url}/api/products/count?collection_product_category=C100000`, {
      headers: {
        authorization: demoBasic,
      },
    });
    expect(((await response.json()) as { count: number }).count).toBeGreaterThan(0);
    const exited = exitCode(child);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('refuses a second process on the data directory of a running sandbox, naming it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mall-cli-sandbox-'));
    const { child, ready } = start([
      'collection',
      '--port',
      '0',
      '--sandbox',
      '--data-dir',
      dataDir,
      '--quiet',
    ]);
    try {
      await ready;
      const second = spawn(
        process.execPath,
        [cli, 'collection', '--port', '0', '--sandbox', '--data-dir', dataDir],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      second.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      expect(await exitCode(second)).toBe(1);
      expect(stderr).toContain(`is in use by process ${child.pid}`);
    } finally {
      const exited = exitCode(child);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses sandbox settings in example mode', async () => {
    const child = spawn(process.execPath, [cli, '--examples', '--seed', '3'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exitCode(child)).toBe(2);
    expect(stderr).toContain(
      '--data-dir, --seed, --shops, --global-edition, --age-verification, --fixtures need the sandbox (drop --examples)',
    );
  });

  it('serves the example mode without @mall-api/sandbox installed, and names the package when stateful', async () => {
    const { child, ready } = start(['collection', '--port', '0', '--quiet', '--examples'], withoutSandbox);
    try {
      const url = /listening on (http:\/\/\S+)/.exec(await ready)?.[1];
      const response = await fetch(`${url}/api/products?collection_product_category=C100000`, {
        headers: { authorization: demoBasic },
      });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exitCode(child);
    }
    const sandbox = spawn(process.execPath, [...withoutSandbox, cli, 'collection', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    sandbox.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exitCode(sandbox)).toBe(1);
    expect(stderr).toContain('sandbox mode needs the optional package @mall-api/sandbox');
  });
});
