// The published packages install from a registry as a user installs them: every public workspace is
// packed and published to a local verdaccio registry (no uplinks: it serves only what was published
// to it), and scratch projects outside the repository run `npm install` of one package by name, the
// @mall-api scope taken from that registry and third-party packages from the npm registry. The mock
// installs alone — its workspace dependencies come from the registry, Prism, Dredd and ioredis do
// not come at all — and its installed `mall-api-mock` answers a real request from the sandbox; a client
// installs without ioredis and loads. Every other package installs alone the same way, each into a
// project of its own, its siblings found through their version ranges, and each of its entry points
// loads (or names the optional peer it needs, such as ioredis for `/redis`). The installs, independent
// of each other, run a few side by side, taking what npm's cache holds without asking again
// (`--prefer-offline`: the local registry's address is new each run, so its packages are always asked for). Every tarball carries its LICENSE and no source map, test file or
// build-time script.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { demoCollectionClients } from '@mall-api/mock-server';
import { freePort } from '@mall-api/test-support/free-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRegistry, startLocalRegistry } from '../src/local-registry.mjs';
import { packWorkspaces, publishedWorkspaces } from '../src/published-packages.mjs';
import { type InstalledMock, startInstalledMock } from '../src/testing/installed-mock.js';

const run = promisify(execFile);
let scratch: string;
let registry: LocalRegistry | undefined;
let tarballs = new Map<string, string>();
const mocks: InstalledMock[] = [];
const published = publishedWorkspaces().map(({ manifest }) => manifest.name);

/** Creates a scratch project and installs `name` into it from the registry, as a user would. */
async function installAlone(project: string, name: string): Promise<string> {
  const directory = join(scratch, project);
  mkdirSync(directory);
  writeFileSync(
    join(directory, 'package.json'),
    // The plain mocks never open SQLite; the native build is only for mall-state's SQLite store.
    JSON.stringify({
      name: project,
      private: true,
      type: 'module',
      allowScripts: { 'better-sqlite3': false },
    }),
  );
  registry?.useFor(directory);
  await run('npm', ['install', name, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: directory,
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return directory;
}

/** The integrity npm recorded for each installed package, by name, from the project's lock file. */
function integrities(directory: string): Map<string, string> {
  const lock = JSON.parse(readFileSync(join(directory, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { integrity?: string }>;
  };
  return new Map(
    Object.entries(lock.packages)
      .filter(([path]) => path.startsWith('node_modules/'))
      .map(([path, entry]) => [path.slice(path.lastIndexOf('node_modules/') + 13), entry.integrity ?? '']),
  );
}

/** The Subresource Integrity string of a tarball, as a registry serves it. */
const integrityOf = (tarball: string) =>
  `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;

const installed = (directory: string, name: string) =>
  existsSync(join(directory, 'node_modules', ...name.split('/'), 'package.json'));

let mockApp: string;
let clientApp: string;
/** The install of each package into a project of its own, by package name. */
let installs = new Map<string, Promise<string>>();
/** How many installs run side by side (each mostly waits on the registries and the disk). */
const installLanes = 3;

/** The project each package is installed into alone. */
const projectOf = (name: string) =>
  name === '@mall-api/mock-server'
    ? 'mock-app'
    : name === '@mall-api/collection-client'
      ? 'client-app'
      : `alone-${name.split('/')[1]}`;

/** Starts every install, `installLanes` lanes side by side, each lane one install after another. */
function installEach(names: readonly string[]): Map<string, Promise<string>> {
  const started = new Map<string, Promise<string>>();
  const lanes: Promise<unknown>[] = Array.from({ length: installLanes }, () => Promise.resolve());
  names.forEach((name, index) => {
    const install = (lanes[index % installLanes] as Promise<unknown>).then(() =>
      installAlone(projectOf(name), name),
    );
    // Seen by the test of that package; the lane goes on after a failure.
    lanes[index % installLanes] = install.catch(() => undefined);
    started.set(name, install);
  });
  return started;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mall-api-registry-install-'));
  mkdirSync(join(scratch, 'tarballs'));
  tarballs = await packWorkspaces(join(scratch, 'tarballs'));
  registry = await startLocalRegistry('@mall-api');
  for (const tarball of tarballs.values()) await registry.publish(tarball);
  // The mock and the client first: the tests of this file's first groups need them.
  const first = ['@mall-api/mock-server', '@mall-api/collection-client'];
  installs = installEach([...first, ...published.filter((name) => !first.includes(name))]);
  mockApp = await (installs.get('@mall-api/mock-server') as Promise<string>);
  clientApp = await (installs.get('@mall-api/collection-client') as Promise<string>);
}, 1_200_000);

afterAll(async () => {
  // No npm left running in a project about to be removed.
  await Promise.allSettled(installs.values());
  await Promise.all(mocks.map((mock) => mock.stop()));
  await registry?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('tarballs', () => {
  it('are one per published workspace, each with its LICENSE, and no source map, test file or build script', async () => {
    expect([...tarballs.keys()].sort()).toEqual(
      publishedWorkspaces()
        .map(({ manifest }) => manifest.name)
        .sort(),
    );
    for (const [name, tarball] of tarballs) {
      const { stdout } = await run('tar', ['-tzf', tarball]);
      const files = stdout.split('\n').filter(Boolean);
      expect(files, name).toContain('package/LICENSE');
      expect(
        files.filter((file) => /\.map$|\.test(-d)?\.|\/testing\/fake-|prepare-build/.test(file)),
        name,
      ).toEqual([]);
    }
  });
});

describe('the mock installed from a registry by name', () => {
  it('brings its workspace dependencies, the sandbox included, as the very tarballs published', () => {
    const installedIntegrity = integrities(mockApp);
    for (const name of [
      '@mall-api/mock-server',
      '@mall-api/sandbox',
      '@mall-api/mall-state',
      '@mall-api/spec-model',
      '@mall-api/specs',
      '@mall-api/rate-limit',
      '@mall-api/auth',
    ])
      expect(installedIntegrity.get(name), name).toBe(integrityOf(tarballs.get(name) ?? ''));
  });

  it('brings neither Prism nor Dredd nor ioredis', () => {
    for (const name of ['@stoplight/prism-http', '@stoplight/prism-core', 'fp-ts', 'dredd', 'ioredis'])
      expect(installed(mockApp, name), name).toBe(false);
  });

  it('starts as the installed mall-api-mock, answers from the sandbox, and gives documented responses without Prism', async () => {
    const port = await freePort();
    const mock = await startInstalledMock(mockApp, ['collection'], ['collection', '--port', String(port)]);
    mocks.push(mock);
    const url = mock.urls.collection;
    const [demo] = demoCollectionClients;
    const authorization = `Basic ${Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString('base64')}`;
    const response = await fetch(`${url}/api/shops`, { headers: { authorization } });
    expect(response.status).toBe(200);
    // The sandbox mall's own shop, not a spec example.
    const body = (await response.json()) as { shops?: { store_id?: string; shop_name?: string }[] };
    expect(body.shops).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ store_id: 'demomall', shop_name: 'Sandbox demomall' }),
      ]),
    );
    // A documented response, prepared at build time: Prism is not installed to make it.
    const asked = await fetch(`${url}/api/shops`, { headers: { authorization, prefer: 'code=503' } });
    expect(asked.status).toBe(503);
    expect(((await asked.json()) as { error?: { code?: string } }).error?.code).toBe('service_unavailable');
  }, 120_000);
});

/** The entry points of a package that run code (its `exports` with a `default` or `import` target). */
function codeEntries(name: string): string[] {
  const { manifest } = publishedWorkspaces().find((workspace) => workspace.manifest.name === name) ?? {};
  const exportsMap = (manifest as { exports?: Record<string, unknown> } | undefined)?.exports ?? {};
  return Object.entries(exportsMap)
    .filter(
      ([, target]) =>
        typeof target === 'object' && target !== null && ('default' in target || 'import' in target),
    )
    .map(([subpath]) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`));
}

describe('every other package installed alone from a registry by name', () => {
  const others = published.filter(
    (name) => !['@mall-api/mock-server', '@mall-api/collection-client'].includes(name),
  );

  it.each(others)(
    '%s installs with its siblings from the registry, and each entry point loads',
    async (name) => {
      const directory = await (installs.get(name) as Promise<string>);
      expect(installed(directory, name)).toBe(true);
      expect(integrities(directory).get(name)).toBe(integrityOf(tarballs.get(name) ?? ''));
      const { manifest } = publishedWorkspaces().find((workspace) => workspace.manifest.name === name) ?? {};
      const optionalPeers = Object.keys(
        (manifest as { peerDependenciesMeta?: Record<string, unknown> } | undefined)?.peerDependenciesMeta ??
          {},
      );
      for (const entry of codeEntries(name)) {
        const imported = await run(
          process.execPath,
          ['--input-type=module', '-e', `console.log(Object.keys(await import('${entry}')).length)`],
          { cwd: directory },
        ).catch((error: { stderr: string }) => ({ stdout: '', stderr: error.stderr }));
        // An entry for what only some users need (`/redis`) loads once they install its optional peer.
        const missingPeer = /Cannot find package '([^']+)'/.exec(imported.stderr)?.[1];
        if (missingPeer) expect(optionalPeers, `import ${entry}`).toContain(missingPeer);
        else expect(Number(imported.stdout), `import ${entry}: ${imported.stderr}`).toBeGreaterThan(0);
      }
    },
    600_000,
  );
});

describe('a client installed from a registry by name', () => {
  it('installs without ioredis and loads', async () => {
    expect(installed(clientApp, '@mall-api/collection-client')).toBe(true);
    expect(installed(clientApp, 'ioredis')).toBe(false);
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "console.log(typeof (await import('@mall-api/collection-client')).createCollectionClient)",
      ],
      { cwd: clientApp },
    );
    expect(stdout.trim()).toBe('function');
  });
});
