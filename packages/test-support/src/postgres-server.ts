// Test support: a throwaway Debian PostgreSQL cluster for one test file: `initdb` into a temporary
// directory, `postgres` on a free loopback port, trust authentication for user `postgres`. It can
// be stopped and started again on the same port with its data (outage tests), killed with SIGKILL,
// and removed, and gives new empty databases. As root (CI containers) the server runs as the `postgres` user Debian's package
// creates, since PostgreSQL refuses to run as root. Not for production use; tests import it as `@mall-api/test-support/postgres-server`.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.mjs';

const run = promisify(execFile);

/** A running throwaway PostgreSQL server. */
export interface TestPostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown), keeping its data; {@link start} brings it back. */
  pause(): Promise<void>;
  /** Starts the server again on the same port with the same data, once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server if running and removes its directory. */
  stop(): Promise<void>;
  /** Creates the empty database `name` (Debian's `createdb`); its URL. */
  createDatabase(name: string): Promise<string>;
}

/** The newest installed PostgreSQL's bin directory (Debian keeps one per major version). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const found = versions
    .map((version) => join(root, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')));
  if (!found)
    throw new Error('PostgreSQL is not installed: apt-get install postgresql (the full suite needs it)');
  return found;
}

/** The user and group ids the server runs as: `postgres` when we are root, else ourselves. */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/**
 * Starts a new PostgreSQL cluster on a free loopback port and waits until it accepts connections.
 * Fails loudly when PostgreSQL is missing: the full test suite needs Debian's `postgresql`.
 */
export async function startPostgres(): Promise<TestPostgresServer> {
  const bin = binDir();
  const user = await serverUser();
  const dir = await mkdtemp(join(tmpdir(), 'mall-api-postgres-'));
  if (user) await chown(dir, user.uid, user.gid);
  const dataDir = join(dir, 'data');
  const spawnOptions = user ? { uid: user.uid, gid: user.gid } : {};
  await run(
    join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    {
      ...spawnOptions,
      cwd: dir,
    },
  );
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const server = spawn(
      join(bin, 'postgres'),
      ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      { ...spawnOptions, cwd: dir, stdio: 'ignore' },
    );
    child = server;
    exited = new Promise((resolve) => server.once('exit', () => resolve()));
    const spawnError = new Promise<never>((_, reject) =>
      server.once('error', (error) => reject(new Error(`cannot start postgres: ${error.message}`))),
    );
    await Promise.race([waitUntilReady(bin, port, Date.now() + 20_000), spawnError]);
  };
  const pause = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT'); // fast shutdown: disconnect clients, stop cleanly
    await exited;
  };

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    pause,
    start,
    async stop() {
      await pause();
      await rm(dir, { recursive: true, force: true });
    },
    async createDatabase(name) {
      await run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}

/** Polls `pg_isready` until the server accepts connections. */
async function waitUntilReady(bin: string, port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      await run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-q']);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`postgres did not accept connections on port ${port} in time`);
}
