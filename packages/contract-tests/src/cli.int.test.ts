// The contract runner as a product, against a server it did not start (our mock, started here, as
// stand-in for any server): the CLI tests the collection API there, at one mall, with the given
// client and writes a JUnit report, its wait for the spent rate limit moving that mall's clock
// (`--mock-clock`) rather than passing a minute on the wall clock; the token flow gets an admin token the server accepts and a token lacking the
// API's scopes that it refuses; and missing credentials are a plain error, not a stack trace.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { demoOAuthClient, startMockServers } from '@mall-api/mock-server';
import { loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesOutside } from './api-facts.js';
import { obtainAccessToken } from './token-flow.js';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..', 'bin', 'mall-api-contract.js');
let served: Awaited<ReturnType<typeof startMockServers>>;
let scratch: string;
const urlOf = (api: string) => served.mocks.find((mock) => mock.api === api)?.url ?? '';

beforeAll(async () => {
  served = await startMockServers({ apis: ['collection', 'admin'], ports: { collection: 0, admin: 0 } });
  scratch = mkdtempSync(join(tmpdir(), 'contract-cli-'));
});
afterAll(async () => {
  await served?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('mall-api-contract against a running server', () => {
  it('tests the collection API with the given client and writes a JUnit report', async () => {
    const report = join(scratch, 'reports', 'collection.xml');
    const { stdout } = await run(process.execPath, [
      cli,
      ...['--api', 'collection', '--base-url', `${urlOf('collection')}/__mall/contract-cli`, '--mock-clock'],
      ...['--client-id', 'demo-partner', '--client-secret', 'demo-partner-secret', '--junit', report],
    ]);
    const [, passed = '0', failed, skipped = '0'] =
      /collection: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(stdout) ?? [];
    expect(failed).toBe('0');
    // One transaction per documented response of each operation. On a server other than our mock
    // the 5xx answers cannot be provoked, and a 429 is provoked once (it spends the whole budget):
    // those are skipped, and say so.
    const codes = (await loadSpec('collection')).operations.map((operation) => operation.responseCodes);
    const transactions = codes.flat().length;
    const unprovokable = codes.flat().filter((code) => code.startsWith('5')).length;
    const limited = codes.filter((documented) => documented.includes('429')).length;
    expect(transactions).toBeGreaterThan(codes.length);
    expect(Number(skipped)).toBe(unprovokable + limited - 1);
    expect(stdout).toMatch(/skip: GET \(429\) .*\n/);
    expect(Number(passed) + Number(skipped)).toBe(transactions);
    const xml = readFileSync(report, 'utf8');
    expect(xml).toMatch(new RegExp(`<testsuite [^>]*tests="${transactions}"[^>]*failures="0"`));
    expect(xml.match(/<testcase /g)).toHaveLength(transactions);
  }, 180_000);

  it('refuses --mock-clock for a base URL that is not one mall of our mock', async () => {
    const failure = await run(process.execPath, [
      cli,
      ...['--api', 'collection', '--base-url', urlOf('collection'), '--mock-clock'],
      ...['--client-id', 'demo-partner', '--client-secret', 'demo-partner-secret'],
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('--mock-clock needs a base URL of one mall');
  });

  it('refuses to start without credentials for a bearer API, saying what it needs', async () => {
    const failure = await run(process.execPath, [cli, '--api', 'admin', '--base-url', urlOf('admin')]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    const { stderr } = failure as { stderr: string };
    expect(stderr).toContain('the admin API needs --access-token, or --client-id and --client-secret');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the token flow', () => {
  const flow = () => ({
    authBaseUrl: urlOf('admin'),
    clientId: demoOAuthClient.clientId,
    clientSecret: demoOAuthClient.clientSecret,
    redirectUri: 'http://127.0.0.1:9/callback',
  });
  const categories = (token: string) =>
    fetch(`${urlOf('admin')}/api/v2/admin/categories`, { headers: { authorization: `Bearer ${token}` } });

  it('gets a token the server accepts, and one lacking the API scopes that it refuses with 403', async () => {
    const token = await obtainAccessToken({ ...flow(), scopes: ['mall.read_category'] });
    expect((await categories(token)).status).toBe(200);
    const forbidden = await obtainAccessToken({ ...flow(), scopes: await scopesOutside('admin') });
    expect((await categories(forbidden)).status).toBe(403);
  });

  it('fails with a plain message for an app the server does not know', async () => {
    await expect(
      obtainAccessToken({ ...flow(), clientId: 'unregistered-app', scopes: ['mall.read_category'] }),
    ).rejects.toThrow(/without a code/);
  });
});
