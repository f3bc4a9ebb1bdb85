// The PostgreSQL test harness: a cluster starts on a free port, keeps its data across a pause and
// a start (what outage tests rely on), refuses connections while paused, and is removed by stop.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startPostgres, type TestPostgresServer } from '@mall-api/test-support/postgres-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const version =
  readdirSync('/usr/lib/postgresql')
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0] ?? '';
const psql = join('/usr/lib/postgresql', version, 'bin', 'psql');
const query = async (server: TestPostgresServer, sql: string) =>
  (await run(psql, ['-X', '-A', '-t', '-d', server.url, '-c', sql])).stdout.trim();

let server: TestPostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('the PostgreSQL test harness', { timeout: 60_000 }, () => {
  it('serves a database on loopback at the URL it gives', async () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    await expect(query(server, 'SELECT 40 + 2')).resolves.toBe('42');
  });

  it('refuses connections while paused and keeps its data when started again', async () => {
    await query(server, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await server.pause();
    await expect(query(server, 'SELECT 1')).rejects.toThrow();
    await server.start();
    await expect(query(server, 'SELECT n FROM kept')).resolves.toBe('7');
  });

  it('removes its directory on stop', async () => {
    const dirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mall-api-postgres-'));
    const before = dirs();
    const other = await startPostgres();
    const created = dirs().filter((name) => !before.includes(name));
    expect(created).toHaveLength(1);
    await other.stop();
    expect(dirs()).not.toContain(created[0]);
  });
});
