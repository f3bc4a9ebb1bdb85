// The packages this repository publishes and their tarballs: every workspace the root package.json
// lists that is not private, packed with `npm pack` exactly as a release packs it. Shared by the
// install tests (tarballs, local registry) and the installed-size benchmark. It neither publishes
// nor versions anything (release.mjs does).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository's root directory. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * @typedef {{ name: string, version: string, private?: boolean }} Manifest
 * @typedef {{ directory: string, manifest: Manifest }} Workspace
 */

/** @param {string} directory @returns {any} */
const readManifest = (directory) => JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));

/** The root package.json (workspaces and the repository's own tool versions). */
export const rootManifest = /** @type {{ workspaces: string[], devDependencies: Record<string, string> }} */ (
  readManifest(repoRoot)
);

/**
 * The workspaces meant for users: every one the root lists that is not private.
 * @returns {Workspace[]}
 */
export function publishedWorkspaces() {
  return rootManifest.workspaces
    .map((workspace) => {
      const directory = join(repoRoot, workspace);
      return { directory, manifest: /** @type {Manifest} */ (readManifest(directory)) };
    })
    .filter(({ manifest }) => manifest.private !== true);
}

/**
 * Packs every published workspace into `destination` (built packages: run the build first).
 * @param {string} destination an existing directory
 * @returns {Promise<Map<string, string>>} each package name with the path of its tarball
 */
export async function packWorkspaces(destination) {
  const { stdout } = await run(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      destination,
      ...publishedWorkspaces().flatMap(({ manifest }) => ['-w', manifest.name]),
    ],
    { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
  );
  const packed = /** @type {{ name: string, filename: string }[]} */ (JSON.parse(stdout));
  return new Map(packed.map((entry) => [entry.name, join(destination, entry.filename)]));
}
