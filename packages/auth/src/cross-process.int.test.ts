// Specification of the refresh race between real operating-system processes: four child processes,
// each with its own token manager and store handle (file store on one directory, or Redis store
// with its own connection to one server), find the shared access token expired at the same moment
// and go to a real HTTP token endpoint. Exactly one refresh may happen, and all four must end up
// with the new token. The children run this package's sources, transpiled by TypeScript into a
// temporary directory, so no build step is needed.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { Redis } from 'ioredis';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTokenStore } from './file-token-store.js';
import { createRedisTokenStore } from './redis-token-store.js';
import { createFakeAuthority, type FakeAuthority } from './testing/fake-authority.js';
import { type FakeTokenEndpoint, startFakeTokenEndpoint } from './testing/fake-token-endpoint.js';
import type { TokenStore } from './token-store.js';

const CLIENT_ID = 'cross-process-client';
const CLIENT_SECRET = 'cross-process-secret';
const sourceDirectory = dirname(fileURLToPath(import.meta.url));

const WORKER = `
import { createInterface } from 'node:readline';
import { createFileTokenStore } from './file-token-store.js';
import { createRedisTokenStore } from './redis-token-store.js';
import { createTokenManager } from './token-manager.js';
import { refreshToken } from './oauth-client.js';

const [kind, location, mallBaseUrl, ioredisUrl] = process.argv.slice(2);
let store;
let redis;
if (kind === 'file') {
  store = createFileTokenStore({ directory: location });
} else {
  const { Redis } = await import(ioredisUrl);
  redis = new Redis(location);
  store = createRedisTokenStore({ redis, keyPrefix: 'cross:' });
  await redis.ping();
}
const manager = createTokenManager({
  mallId: 'yourmall',
  store,
  refresh: (token) => refreshToken({ mallBaseUrl, clientId: '${CLIENT_ID}', clientSecret: '${CLIENT_SECRET}', refreshToken: token }),
});
process.stdout.write('ready\\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== 'go') continue;
  try {
    process.stdout.write(JSON.stringify({ token: await manager.getAccessToken() }) + '\\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: String(error) }) + '\\n');
  }
  break;
}
lines.close();
await redis?.quit();
`;

/** Transpiles the package sources (no tests) into `directory`, plus the worker script. */
async function buildWorker(directory: string): Promise<string> {
  const sources = (await readdir(sourceDirectory)).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  );
  for (const name of sources) {
    const { outputText } = ts.transpileModule(await readFile(join(sourceDirectory, name), 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
      fileName: name,
    });
    await writeFile(join(directory, name.replace(/\.ts$/, '.js')), outputText);
  }
  await writeFile(join(directory, 'package.json'), '{"type":"module"}');
  await writeFile(join(directory, 'worker.js'), WORKER);
  return join(directory, 'worker.js');
}

interface Worker {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Promise<void>;
  readonly result: Promise<{ token?: string; error?: string }>;
}

function startWorker(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
  const result = new Promise<{ token?: string; error?: string }>((resolve, reject) => {
    child.once('exit', (code) => {
      const line = stdout.split('\n').find((text) => text.startsWith('{'));
      if (code === 0 && line !== undefined) resolve(JSON.parse(line));
      else reject(new Error(`worker failed (${code}): ${stderr}`));
    });
  });
  ready.catch(() => undefined); // surfaced through `result`
  return { child, ready, result };
}

/** Starts four workers, releases them at once, and returns what each got. */
async function race(
  script: string,
  args: readonly string[],
): Promise<Array<{ token?: string; error?: string }>> {
  const workers = Array.from({ length: 4 }, () => startWorker(script, args));
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.child.stdin.write('go\n');
  return Promise.all(workers.map((worker) => worker.result));
}

let workDirectory: string;
let script: string;
let endpoint: FakeTokenEndpoint;
let authority: FakeAuthority;
let redisServer: TestRedisServer;

beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'mall-api-auth-processes-'));
  await mkdir(join(workDirectory, 'code'));
  script = await buildWorker(join(workDirectory, 'code'));
  authority = createFakeAuthority({ clientId: CLIENT_ID, refreshDelayMs: 150 });
  endpoint = await startFakeTokenEndpoint({ authority, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  redisServer = await startRedisServer();
});

afterAll(async () => {
  await endpoint.close();
  await redisServer.stop();
  await rm(workDirectory, { recursive: true, force: true });
});

async function expectOneRefresh(store: TokenStore, args: readonly string[]): Promise<void> {
  const before = authority.refreshAttempts;
  const stale = authority.issue({ accessTtlMs: -1000 });
  await store.set('yourmall', stale);
  const results = await race(script, args);
  expect(results.map((result) => result.error)).toEqual([undefined, undefined, undefined, undefined]);
  expect(authority.refreshAttempts - before).toBe(1);
  expect(new Set(results.map((result) => result.token))).toEqual(new Set([authority.current?.accessToken]));
  expect((await store.get('yourmall'))?.refreshToken).toBe(authority.validRefreshToken);
}

describe('four processes sharing one store, with an expired access token', () => {
  it('file store on one directory: exactly one refresh, and all four get the new token', async () => {
    const directory = join(workDirectory, 'tokens');
    await expectOneRefresh(createFileTokenStore({ directory }), ['file', directory, endpoint.baseUrl]);
  });

  it('Redis store with one connection per process: exactly one refresh, and all four get the new token', async () => {
    const redis = new Redis(redisServer.url);
    try {
      const ioredisUrl = pathToFileURL(createRequire(import.meta.url).resolve('ioredis')).href;
      await expectOneRefresh(createRedisTokenStore({ redis, keyPrefix: 'cross:' }), [
        'redis',
        redisServer.url,
        endpoint.baseUrl,
        ioredisUrl,
      ]);
    } finally {
      await redis.quit();
    }
  });
});
