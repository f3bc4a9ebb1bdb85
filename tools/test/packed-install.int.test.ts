// The published packages work outside this repository. Every non-private workspace of the root
// package.json is packed with `npm pack`; each tarball passes publint (strict) and
// @arethetypeswrong/cli, all checked in one process by their libraries under the CLI's rules and
// profiles (tools/src/testing/package-lint.mjs); the
// tarballs are installed into a scratch app in a temp dir (no workspace links: the packages find
// each other in the tarballs through `overrides`, third-party dependencies come from npm's cache or the npm
// registry). There the app that uses each client type-checks under `nodenext`, `node16` and
// `bundler` resolution (and a wrong query does not), strictly and without skipLibCheck, with no
// @types package but Node's; a CommonJS module's `import = require()` of each client and of
// startMock type-checks; no storage driver is installed; an app's test setup runs startMock (in
// memory) with each client; the mock starts from the installed package's `mall-api-mock`, the
// app and a `.cjs` script that `require()`s each client and startMock run against it (also with
// require(esm) turned off, as jest's CommonJS mode, which loads the CommonJS builds), and
// `npx @mall-api/contract-tests` (with Dredd, its optional peer, installed beside it) tests the
// admin mock, at one mall, through the token flow, writing a JUnit report; its waits for the rate
// limit move that mall's clock (`--mock-clock`).
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiNames, loadSpec } from '@mall-api/spec-model';
import { freePort } from '@mall-api/test-support/free-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packWorkspaces, publishedWorkspaces, repoRoot, rootManifest } from '../src/published-packages.mjs';
import { type InstalledMock, startInstalledMock } from '../src/testing/installed-mock.js';

const run = promisify(execFile);
const fixtures = join(import.meta.dirname, 'fixtures', 'packed-app');
const published = publishedWorkspaces();
/** Dredd is an optional peer of the contract tests: the app that runs them installs it. */
const dreddVersion = (
  JSON.parse(readFileSync(join(repoRoot, 'packages', 'contract-tests', 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies.dredd;

interface Manifest {
  name: string;
}

let scratch: string;
let tarballs = new Map<string, string>();
const mocks: InstalledMock[] = [];

/** Runs npm, npx or one of the scratch app's installed commands in the scratch app. */
const npm = (command: 'npm' | 'npx' | 'tsc', args: string[], timeout = 300_000) =>
  run(command === 'tsc' ? join(scratch, 'app', 'node_modules', '.bin', 'tsc') : command, args, {
    cwd: join(scratch, 'app'),
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });

/** What tools/src/testing/package-lint.mjs found in one tarball. */
interface PackageLint {
  name: string;
  publint: string[];
  attw: { profile: string; entrypoints?: string[]; problems?: string }[];
}
let lints: Promise<Map<string, PackageLint>> | undefined;
/** publint and attw over every tarball, in one process (TypeScript loaded once), by package name. */
const packageLints = () =>
  (lints ??= run(
    process.execPath,
    [join(repoRoot, 'tools', 'src', 'testing', 'package-lint.mjs'), ...tarballs.values()],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  ).then(({ stdout }) => new Map((JSON.parse(stdout) as PackageLint[]).map((lint) => [lint.name, lint]))));

let nodeNext: Promise<string[]> | undefined;
/**
 * The errors of one strict `nodenext` program (tsconfig.checks.json) over the app and its test
 * setup (emitted to dist, which the app's runs below use), the CommonJS module that imports each
 * client with require() and the wrong query, which must not type-check: one program, not three.
 */
const nodeNextErrors = () =>
  (nodeNext ??= npm('tsc', ['-p', 'tsconfig.checks.json']).then(
    () => [],
    (error: { stdout: string }) => error.stdout.split('\n').filter((line) => /: error TS\d+/.test(line)),
  ));

/** Starts the mock the scratch app installed; it is stopped after the file. */
async function startMock(apis: string[], args: string[]): Promise<Record<string, string>> {
  const mock = await startInstalledMock(join(scratch, 'app'), apis, args);
  mocks.push(mock);
  return mock.urls;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mall-api-packed-'));
  const packed = join(scratch, 'tarballs');
  mkdirSync(packed);
  tarballs = await packWorkspaces(packed);
  // The tarballs' lint runs beside the install (its tests await it; a failure is theirs to report).
  packageLints().catch(() => undefined);
  const app = join(scratch, 'app');
  mkdirSync(app);
  for (const file of [
    'app.ts',
    'start-mock.ts',
    'wrong-query.ts',
    'require.cjs',
    'require-types.cts',
    'tsconfig.json',
    'tsconfig.checks.json',
  ])
    copyFileSync(join(fixtures, file), join(app, file));
  const fileSpecs = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'scratch-app',
      private: true,
      type: 'module',
      dependencies: { ...fileSpecs, dredd: dreddVersion },
      devDependencies: {
        typescript: rootManifest.devDependencies.typescript,
        '@types/node': rootManifest.devDependencies['@types/node'],
      },
      // The packages depend on each other at exact versions: take those from the tarballs too.
      overrides: Object.fromEntries([...tarballs.keys()].map((name) => [name, `$${name}`])),
    }),
  );
  await npm('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'], 600_000);
}, 900_000);

afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.stop()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the published packages', () => {
  it('are every public workspace, with a README', () => {
    expect(published.map(({ manifest }) => manifest.name)).toEqual(
      expect.arrayContaining([
        '@mall-api/specs',
        '@mall-api/rate-limit',
        '@mall-api/mall-state',
        '@mall-api/auth',
        '@mall-api/client-kit',
        '@mall-api/collection-client',
        '@mall-api/admin-client',
        '@mall-api/analytics-client',
        '@mall-api/mock-server',
        '@mall-api/contract-tests',
      ]),
    );
    for (const { directory } of published)
      expect(existsSync(join(directory, 'README.md')), directory).toBe(true);
    expect([...tarballs.keys()].sort()).toEqual(published.map(({ manifest }) => manifest.name).sort());
  });

  it.each(published.map(({ manifest }) => manifest.name))(
    '%s passes publint and @arethetypeswrong/cli',
    async (name) => {
      const lint = (await packageLints()).get(name);
      // `publint --strict` prints "All good!" only for a package without a message.
      expect(lint?.publint, name).toEqual([]);
      // attw exits non-zero on a problem its profile does not leave out: each run names its profile.
      expect(lint?.attw.length, name).toBeGreaterThan(0);
      for (const run of lint?.attw ?? []) expect(run.problems, `${name}: ${run.profile}`).toBeUndefined();
    },
    120_000,
  );

  it('build the clients and the packages they need for CommonJS loaders too', () => {
    const commonJs = published
      .filter(({ manifest }) =>
        JSON.stringify((manifest as { exports?: unknown }).exports).includes('"require"'),
      )
      .map(({ manifest }) => manifest.name);
    expect(commonJs).toEqual(
      expect.arrayContaining([
        '@mall-api/rate-limit',
        '@mall-api/auth',
        '@mall-api/client-kit',
        '@mall-api/collection-client',
        '@mall-api/admin-client',
        '@mall-api/analytics-client',
        '@mall-api/mock-server',
      ]),
    );
  });

  it('install without workspace links: every @mall-api package is a copy from its tarball', () => {
    for (const name of tarballs.keys()) {
      const installed = join(scratch, 'app', 'node_modules', ...name.split('/'));
      expect(realpathSync(installed).startsWith(realpathSync(scratch)), `${name} is not linked`).toBe(true);
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
      expect(manifest.name).toBe(name);
      expect(existsSync(join(installed, 'src')), `${name} ships no sources`).toBe(false);
    }
  });

  it('type-check an app that uses each client, and reject a wrong query', async () => {
    const errors = await nodeNextErrors();
    expect(errors.filter((line) => !line.startsWith('wrong-query.ts'))).toEqual([]);
    expect(errors.join('\n')).toMatch(/^wrong-query\.ts.*error TS2322/m);
    expect(existsSync(join(scratch, 'app', 'dist', 'app.js'))).toBe(true);
  }, 600_000);

  it.each([
    ['node16', ['--module', 'Node16', '--moduleResolution', 'Node16']],
    ['bundler', ['--module', 'Preserve', '--moduleResolution', 'Bundler']],
  ])(
    'resolve the types of each client under %s resolution',
    async (_, resolution) => {
      const { stdout } = await npm('tsc', [
        ...['--noEmit', '--strict', ...resolution, '--target', 'ES2022', '--types', 'node'],
        'app.ts',
      ]);
      expect(stdout).toBe('');
    },
    600_000,
  );

  it('type-check a CommonJS module that imports each client with require()', async () => {
    const errors = await nodeNextErrors();
    expect(errors.filter((line) => line.startsWith('require-types.cts'))).toEqual([]);
    // It was in the program: emitted beside the app.
    expect(existsSync(join(scratch, 'app', 'dist', 'require-types.cjs'))).toBe(true);
  }, 600_000);

  it('start the mock from its installed mall-api-mock, and the app runs against it', async () => {
    // All three APIs in one process (the analytics mock takes the admin mock's tokens), on their
    // default ports at a loopback address of their own, so nothing else on this machine is in the
    // way; `--examples` answers from the spec's examples, which the app's assertions rely on.
    const octet = () => 2 + Math.floor(Math.random() * 250);
    const host = `127.${octet()}.${octet()}.${octet()}`;
    const urls = await startMock([...apiNames], ['--host', host, '--examples']);
    const { stdout } = await run(process.execPath, [join(scratch, 'app', 'dist', 'app.js')], {
      env: {
        ...process.env,
        COLLECTION_URL: urls.collection,
        ADMIN_URL: urls.admin,
        ANALYTICS_URL: urls.analytics,
      },
    });
    const found = JSON.parse(stdout) as Record<string, number>;
    expect(found).toMatchObject({ products: 200, categories: 200, views: 200 });
    expect(found.productCount).toBeGreaterThan(0);
    expect(found.categoryCount).toBeGreaterThan(0);
    // A CommonJS script require()s each client and reads from the same mock.
    const required = await run(process.execPath, [join(scratch, 'app', 'require.cjs')], {
      env: { ...process.env, COLLECTION_URL: urls.collection },
    });
    expect(JSON.parse(required.stdout)).toEqual({ shops: 200, categories: 200, analytics: 'function' });
    // The same where Node cannot require an ES module, as jest's CommonJS mode: the CommonJS builds.
    const built = await run(
      process.execPath,
      ['--no-experimental-require-module', join(scratch, 'app', 'require.cjs')],
      { env: { ...process.env, COLLECTION_URL: urls.collection } },
    );
    expect(JSON.parse(built.stdout)).toEqual({ shops: 200, categories: 200, analytics: 'function' });
  }, 600_000);

  it('load each client with require() where Node cannot require an ES module (as jest in its CommonJS mode)', async () => {
    const names = ['collection', 'admin', 'analytics'].map((api) => `@mall-api/${api}-client`);
    const script = `console.log(JSON.stringify(${JSON.stringify(names)}.map((name) => Object.keys(require(name)).length)))`;
    const { stdout } = await run(process.execPath, ['--no-experimental-require-module', '-e', script], {
      cwd: join(scratch, 'app'),
    });
    for (const count of JSON.parse(stdout) as number[]) expect(count).toBeGreaterThan(0);
  });

  it('install no storage driver: startMock in memory needs no native module', () => {
    for (const name of ['better-sqlite3', 'pg'])
      expect(existsSync(join(scratch, 'app', 'node_modules', name)), name).toBe(false);
  });

  it("run an app's test setup with startMock and each client, type-checked without skipLibCheck", async () => {
    const { stdout } = await run(process.execPath, [join(scratch, 'app', 'dist', 'start-mock.js')], {
      timeout: 120_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      created: 201,
      name: 'Outside app',
      shops: 200,
      views: 200,
      methods: { name: 'Outside app', shops: 1, days: 31 },
    });
  }, 600_000);

  it('run the admin contract tests with npx @mall-api/contract-tests, through the token flow, with a JUnit report', async () => {
    const { admin = '' } = await startMock(
      ['admin'],
      ['admin', '--port', String(await freePort()), '--examples'],
    );
    const report = join(scratch, 'reports', 'admin.xml');
    const { stdout } = await npm(
      'npx',
      [
        '@mall-api/contract-tests',
        ...[
          '--api',
          'admin',
          '--base-url',
          `${admin}/__mall/packed-app`,
          '--mock-clock',
          '--client-id',
          'demo-app',
          '--client-secret',
          'demo-app-secret',
        ],
        ...['--junit', report],
      ],
      900_000,
    ).catch((error: { message: string; stdout?: string; stderr?: string }) => {
      // The run exits 1 when a transaction fails: keep what it printed, to say which one.
      throw new Error(`${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`.slice(-8_000));
    });
    const [, passed = '0', failed, skipped = '0'] =
      /admin: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(stdout) ?? [];
    expect(failed).toBe('0');
    // One transaction per documented response of each operation of the bundled spec.
    const codes = (await loadSpec('admin')).operations.map((operation) => operation.responseCodes);
    const transactions = codes.flat().length;
    expect(transactions).toBeGreaterThan(codes.length);
    expect(Number(passed) + Number(skipped)).toBe(transactions);
    // Skipped only what cannot be provoked on a server other than our mock: 5xx and 207 answers, a
    // 400 without a body to spoil, a 422 with no constraint to break, every 429 but the one provoked,
    // and the OAuth endpoints' plain-HTTP 403 (a server reached over HTTPS cannot be sent HTTP).
    const skips = [...stdout.matchAll(/^skip: (\w+) \((\d+)\)/gm)].map((m) => m[2]);
    expect(skips).toHaveLength(Number(skipped));
    expect(new Set(skips)).toEqual(new Set(['500', '503', '504', '207', '400', '403', '422', '429']));
    const forbidden = [...stdout.matchAll(/^skip: \w+ \(403\) (.*)$/gm)].map((m) => m[1]);
    expect(forbidden.length).toBeGreaterThan(0);
    for (const line of forbidden) expect(line).toContain('/oauth/');
    const limited = codes.filter((documented) => documented.includes('429')).length;
    expect(skips.filter((status) => status === '429')).toHaveLength(limited - 1);
    expect(Number(passed)).toBeGreaterThan(transactions / 2);
    expect(readFileSync(report, 'utf8')).toMatch(
      new RegExp(`<testsuite [^>]*tests="${transactions}"[^>]*failures="0"`),
    );
  }, 900_000);
});
