// Benchmark support: a throwaway Debian `redis-server` on a free loopback port, and the totals a
// Redis server counts (commands, script calls, read events, bytes received) for before/after counts.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess } from './processes.mjs';

/** Starts redis-server; resolves to `{ url, stop }`. */
export async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mall-api-bench-redis-'));
  const server = await startProcess(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    () =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Redis's totals so far: commands run (but INFO), script calls, read events, bytes received. */
export async function redisTotals(/** @type {import('ioredis').Redis} */ redis) {
  const text = `${await redis.info('stats')}${await redis.info('commandstats')}`;
  const stat = (/** @type {string} */ name) => Number(new RegExp(`${name}:(\\d+)`).exec(text)?.[1] ?? 0);
  const calls = [...text.matchAll(/cmdstat_(\w+):calls=(\d+)/g)];
  /** @param {(command: string) => boolean} counted */
  const sum = (counted) =>
    calls.filter(([, command]) => counted(String(command))).reduce((total, [, , n]) => total + Number(n), 0);
  return {
    commands: sum((command) => command !== 'info'),
    scripts: sum((command) => command === 'evalsha' || command === 'eval'),
    reads: stat('total_reads_processed'),
    bytes: stat('total_net_input_bytes'),
  };
}
