// `mall-api-auth login` against the admin mock: it prints the authorize URL, catches the redirect
// on its loopback callback, exchanges the code, stores the tokens in a 0600 file, and never
// prints a token or the client secret.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServers } from './server/mock-server.js';

const cli = createRequire(import.meta.url)
  .resolve('@mall-api/auth/package.json')
  .replace(/package\.json$/, 'dist/cli.js');
let served: Awaited<ReturnType<typeof startMockServers>>;
let admin: RunningMock;
let store: string;

beforeAll(async () => {
  served = await startMockServers({ apis: ['admin'], ports: { admin: 0 } });
  admin = served.mocks[0] as RunningMock;
  store = await mkdtemp(join(tmpdir(), 'mall-api-login-'));
});
afterAll(async () => {
  await served.close();
  await rm(store, { recursive: true, force: true });
});

describe('mall-api-auth login', () => {
  it('completes the flow through the loopback callback and stores the tokens privately', async () => {
    const child = spawn(
      process.execPath,
      [
        cli,
        'login',
        '--mall',
        'demomall',
        '--client-id',
        'demo-app',
        '--scope',
        'mall.read_category,mall.read_product',
        '--base-url',
        admin.url,
        '--store',
        store,
      ],
      {
        env: { ...process.env, MALL_API_CLIENT_SECRET: 'demo-app-secret' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const authorizeUrl = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const url = /(http:\/\/127\.0\.0\.1:\d+\/api\/v2\/oauth\/authorize\?\S+)/.exec(output)?.[1];
        if (url) {
          clearInterval(timer);
          resolve(url);
        }
      }, 20);
      child.once('exit', () => reject(new Error(output)));
    });
    // The "browser": the mall redirects to the CLI's callback, which the browser then opens.
    const consent = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = await fetch(consent.headers.get('location') ?? '');
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('Logged in');
    expect(await exited).toBe(0);
    expect(output).toContain('Logged in to demomall as demo-admin');

    const file = join(store, 'demomall.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = await readFile(file, 'utf8');
    const accessToken = /"access_?[tT]oken"\s*:\s*"([^"]+)"/.exec(saved)?.[1] ?? '';
    const refreshToken = /"refresh_?[tT]oken"\s*:\s*"([^"]+)"/.exec(saved)?.[1] ?? '';
    expect(accessToken.length).toBeGreaterThan(10);
    for (const secret of [accessToken, refreshToken, 'demo-app-secret']) expect(output).not.toContain(secret);
  });

  it('refuses to start without a client secret: a usage mistake, exit 2', async () => {
    const child = spawn(
      process.execPath,
      [cli, 'login', '--mall', 'demomall', '--client-id', 'demo-app', '--scope', 'mall.read_category'],
      {
        env: { ...process.env, MALL_API_CLIENT_SECRET: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(stderr).toContain('client secret');
  });
});
