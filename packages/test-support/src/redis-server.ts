// Test support: starts a real Debian `redis-server` on a free loopback port for one test file
// and stops it afterwards. Not for production use; tests import it as `@mall-api/test-support/redis-server`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

export { freePort };

/** A running throwaway Redis server. */
export interface TestRedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its working directory. */
  stop(): Promise<void>;
}

async function waitForPort(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not open port ${port} in time`);
}

/**
 * Starts `redis-server` (from PATH or /usr/bin) with no persistence on a free loopback port, or on
 * `options.port` (an outage test starts it again where its clients look).
 * Fails loudly when the binary is missing: the full test suite needs Debian's `redis-server`.
 */
export async function startRedisServer(options: { port?: number } = {}): Promise<TestRedisServer> {
  const port = options.port ?? (await freePort());
  const dir = await mkdtemp(join(tmpdir(), 'mall-api-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore', env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/bin:/usr/sbin` } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`cannot start redis-server: ${error.message}`))),
  );
  await Promise.race([waitForPort(port, Date.now() + 10_000), spawnError]);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
