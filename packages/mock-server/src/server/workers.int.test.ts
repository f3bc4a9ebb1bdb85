// `mall-api-mock --workers 2` as a real process on one real PostgreSQL and one real Redis: the
// primary supervises two workers (its log names each with its pid) that serve the same ports; a
// worker SIGKILLed is replaced while the port keeps answering; SIGTERM stops the primary and every
// worker, exit 0. Whether N workers may run at all is worker-rules.test.ts's question.

import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { startRedisServer, type TestRedisServer } from '@mall-api/test-support/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoToken, exitCode, startCli, urlOf } from '../testing/cli-process.js';
import { until } from '../testing/replica-set.js';

let postgres: TestPostgresServer;
let redis: TestRedisServer;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([postgres?.stop(), redis?.stop()]);
}, 30_000);

/** The pids of the workers the primary's log says it started, in order. */
const startedPids = (output: string) =>
  [...output.matchAll(/worker \d+ started \(pid (\d+)\)/g)].map((match) => Number(match[1]));

/** Whether a process is running (signal 0 checks without sending anything). */
const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('runs two workers on the same ports, replaces a killed one while serving, and stops all on SIGTERM', async () => {
  const primary = startCli([
    '--workers',
    '2',
    '--store',
    postgres.url,
    '--redis',
    redis.url,
    '--apis',
    'admin',
    '--port',
    '0',
  ]);
  const exited = exitCode(primary.child);
  try {
    await primary.ready;
    await until(async () => (primary.output().match(/^ready$/gm) ?? []).length === 2, 60_000);
    expect(primary.output()).toContain('supervising 2 workers');
    const workers = startedPids(primary.output());
    expect(workers).toHaveLength(2);
    expect(new Set([primary.child.pid, ...workers]).size).toBe(3);
    const admin = urlOf(primary.output(), 'admin');
    const token = await demoToken(admin);
    const categories = () =>
      fetch(`${admin}/api/v2/admin/categories?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect((await categories()).status).toBe(200);

    const [victim, survivor] = workers as [number, number];
    process.kill(victim, 'SIGKILL');
    // The port keeps answering (a kept-alive connection to the killed worker breaks once; a new
    // one reaches a live worker).
    await until(async () => (await categories()).status === 200);
    await until(async () => startedPids(primary.output()).length === 3, 60_000);
    expect(primary.output()).toMatch(/worker \d+ exited unexpectedly \(SIGKILL\); starting another/);
    const replacement = startedPids(primary.output())[2] as number;
    expect([victim, survivor]).not.toContain(replacement);
    await until(async () => (primary.output().match(/^ready$/gm) ?? []).length === 3, 60_000);
    for (let call = 0; call < 6; call++) expect((await categories()).status).toBe(200);
    expect(running(victim)).toBe(false);

    primary.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of [survivor, replacement]) expect(running(pid)).toBe(false);
  } finally {
    if (primary.child.exitCode === null) primary.child.kill('SIGKILL');
  }
}, 90_000);
