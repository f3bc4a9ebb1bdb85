// The deployment guide's commands work: every `sh` block of docs/guides/deployment.md is marked
// either as run by the test suite or as needing a container engine (none runs here), and the ones
// marked to run are run with bash (set -euo pipefail) from the repository root against real
// processes: the "without containers" block starts two `mall-api-mock` replicas on a throwaway
// PostgreSQL and Redis and Debian's nginx with the shipped balancer configuration, then the
// collection call and the OAuth flow run through that balancer and answer as the guide says.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const guide = readFileSync(join(repoRoot, 'docs', 'guides', 'deployment.md'), 'utf8');
const runs = 'runs in the test suite';
const needsEngine = 'needs a container engine';

/** Every `sh` block of the guide with the marker comment just before it (undefined when none). */
function shellBlocks(): { marker: string | undefined; script: string }[] {
  return [...guide.matchAll(/(?:<!-- deployment-guide: ([^>]*?) -->\s*)?```sh\n([\s\S]*?)```/g)].map(
    (match) => ({ marker: match[1], script: match[2] ?? '' }),
  );
}

/** The runnable block whose script contains `text`. */
function runnable(text: string): string {
  const block = shellBlocks().find(
    (candidate) => candidate.marker === runs && candidate.script.includes(text),
  );
  if (!block) throw new Error(`the guide has no runnable block with ${text}`);
  return block.script;
}

/**
 * Runs a bash script from the repository root in its own process group; resolves once it has
 * exited and its output is read. With `errorFile` its output goes there instead (nothing is read).
 */
function runBash(
  script: string,
  errorFile: string | undefined,
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<{ code: number; stdout: string; stderr: string }> } {
  const file = errorFile === undefined ? undefined : openSync(errorFile, 'w');
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: file === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', file, file],
    detached: true,
  });
  if (file !== undefined) closeSync(file);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
  return { child, done };
}

/** Whether a loopback TCP port can be listened on now. */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A two-digit prefix P whose ports P10, P11 and P12 are free now, other than the ones taken. */
async function freePrefix(taken: readonly number[]): Promise<number> {
  for (let prefix = 11; prefix <= 64; prefix++) {
    if (taken.includes(prefix)) continue;
    const ports = [10, 11, 12].map((suffix) => prefix * 100 + suffix);
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return prefix;
  }
  throw new Error('no free port prefix');
}

describe('docs/guides/deployment.md', () => {
  it('marks every shell block as run by the test suite or as needing a container engine', () => {
    const blocks = shellBlocks();
    expect(blocks.length).toBeGreaterThan(3);
    for (const block of blocks) expect([runs, needsEngine], block.script).toContain(block.marker);
    // Only the blocks that call docker are left to a machine with a container engine.
    for (const block of blocks)
      expect(block.marker === needsEngine, block.script).toBe(/\bdocker\b/.test(block.script));
  });

  describe('its runnable blocks, against the processes topology it starts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mall-api-guide-'));
    let postgres: TestPostgresServer | undefined;
    let redis: TestRedisServer | undefined;
    let topology: ReturnType<typeof runBash> | undefined;
    let front = 0;
    const prefixes: number[] = [];

    beforeAll(async () => {
      [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
      const one = await freePrefix([]);
      const two = await freePrefix([one]);
      front = await freePrefix([one, two]);
      prefixes.push(one, two);
      // The replicas and nginx it leaves running keep no pipe of ours open: its errors go to a file.
      const errors = join(dir, 'script.err');
      topology = runBash(runnable('npx mall-api-mock --store'), errors, {
        STORE: postgres.url,
        REDIS: redis.url,
        ONE: String(one),
        TWO: String(two),
        FRONT: String(front),
        HEALTH: String(front * 100 + 13),
        LISTEN: '127.0.0.1:',
        DIR: dir,
      });
      const { code } = await topology.done;
      expect(code, readFileSync(errors, 'utf8')).toBe(0);
    }, 120_000);

    afterAll(async () => {
      // The replicas and nginx the block left running share the script's process group.
      const group = topology?.child.pid;
      if (group !== undefined) {
        try {
          process.kill(-group, 'SIGTERM');
        } catch {}
        for (let tries = 0; tries < 300; tries++) {
          try {
            process.kill(-group, 0);
          } catch {
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await Promise.all([postgres?.stop(), redis?.stop()]);
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it('reads a collection list through the balancer', async () => {
      const { code, stdout } = await runBash(runnable('demo-partner:demo-partner-secret'), undefined, {
        COLLECTION: `http://127.0.0.1:${front}10`,
      }).done;
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as { shops: unknown[] }).shops).toHaveLength(1);
    });

    it('runs the OAuth flow through the balancer and reads the admin API with its token', async () => {
      const { code, stdout } = await runBash(runnable('grant_type=authorization_code'), undefined, {
        ADMIN: `http://127.0.0.1:${front}11`,
      }).done;
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as { categories: unknown[] }).categories).toHaveLength(1);
    });

    it('started both replicas on PostgreSQL and Redis, and the balancer on the chosen ports only', () => {
      for (const prefix of prefixes) {
        const log = readFileSync(join(dir, `mock-${prefix}.log`), 'utf8');
        expect(log).toContain('data in PostgreSQL at');
        expect(log).toContain('shared state in Redis');
      }
      const conf = readFileSync(join(dir, 'balancer.conf'), 'utf8');
      expect(conf).not.toMatch(/mock-\d:/);
      expect(conf).not.toMatch(/listen \d+;/);
    });
  });
});
