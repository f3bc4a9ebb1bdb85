#!/usr/bin/env node
// Benchmark: what a user installs. Every published package is packed and published to a local
// registry (tools/src/local-registry.mjs), then installed alone by name into a scratch project;
// the figure is the size of that project's node_modules (the package and all it brings, files'
// bytes), next to the target where the issue set one (mock with the sandbox 40 MB, each client
// 2 MB) as a ratio. better-sqlite3's native build is not run (as in the install tests). Run after
// `npm run build`. Two more rows: an app with the three clients and the mock (startMock in
// memory), and the same app with the storage drivers (what it installed before they were optional peers).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startLocalRegistry } from '../tools/src/local-registry.mjs';
import { packWorkspaces } from '../tools/src/published-packages.mjs';

const run = promisify(execFile);
const MB = 1024 * 1024;
/** @type {Record<string, number>} */
const targets = {
  '@mall-api/mock-server': 40 * MB,
  '@mall-api/collection-client': 2 * MB,
  '@mall-api/admin-client': 2 * MB,
  '@mall-api/analytics-client': 2 * MB,
};

/** @param {string} directory @returns {{ bytes: number, packages: number }} */
function measure(directory) {
  let bytes = 0;
  let packages = 0;
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    // A package is a folder right under a node_modules (or a scope in one) with a package.json.
    if (entry.name === 'package.json' && /node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(entry.parentPath))
      packages += 1;
  }
  return { bytes, packages };
}

const scratch = mkdtempSync(join(tmpdir(), 'mall-api-sizes-'));
const registry = await startLocalRegistry('@mall-api');
try {
  mkdirSync(join(scratch, 'tarballs'));
  const tarballs = await packWorkspaces(join(scratch, 'tarballs'));
  for (const tarball of tarballs.values()) await registry.publish(tarball);
  process.stdout.write('package                        installed   packages   target    ratio\n');
  /** Installs `names` into a new project and prints one row for it, labelled `label`. */
  const row = async (/** @type {string} */ label, /** @type {string[]} */ names) => {
    const project = join(scratch, label.replace(/[^\w-]+/g, '+'));
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'sizes', private: true, allowScripts: { 'better-sqlite3': false } }),
    );
    registry.useFor(project);
    await run('npm', ['install', ...names, '--no-audit', '--no-fund', '--no-package-lock'], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    });
    const { bytes, packages } = measure(join(project, 'node_modules'));
    const target = names.length === 1 ? targets[label] : undefined;
    process.stdout.write(
      `${label.padEnd(30)} ${(bytes / MB).toFixed(1).padStart(6)} MB ${String(packages).padStart(10)} ${target ? `${(target / MB).toFixed(0).padStart(5)} MB ${(bytes / target).toFixed(2).padStart(8)}` : ''}\n`,
    );
  };
  for (const name of tarballs.keys()) await row(name, [name]);
  // An app's test setup: the three clients and startMock (in memory), then the same with the
  // storage drivers, which mall-state's optional dependencies installed for everyone before
  // issue 38 (now optional peers, installed only for --data-dir or --store postgres://).
  const app = ['collection', 'admin', 'analytics'].map((api) => `@mall-api/${api}-client`);
  app.push('@mall-api/mock-server');
  await row('app: 3 clients + mock', app);
  await row('app + better-sqlite3, pg', [...app, 'better-sqlite3', 'pg']);
} finally {
  await registry.stop();
  rmSync(scratch, { recursive: true, force: true });
}
