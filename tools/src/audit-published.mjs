#!/usr/bin/env node
// Audit of what users install: for each published workspace, the third-party packages of its
// production tree as the lock file resolves them (dependencies, optional dependencies and required
// peers, followed through workspace links; devDependencies and optional peers left out), checked
// against known advisories. The advisories come from the registry's bulk advisory endpoint, or,
// where the registry refuses it, from OSV records (JSON files, e.g. an unpacked OSV npm export)
// in the directory named by `--osv DIR` or MALL_API_OSV_DIR. Exits 1 when a critical or high
// advisory affects a published tree; says plainly when no advisory source could be read.
// Usage: node tools/src/audit-published.mjs [--osv DIR]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { publishedWorkspaces, repoRoot } from './published-packages.mjs';

/**
 * @typedef {{ version?: string, link?: boolean, resolved?: string, dependencies?: Record<string, string>,
 *   optionalDependencies?: Record<string, string>, peerDependencies?: Record<string, string>,
 *   peerDependenciesMeta?: Record<string, { optional?: boolean }> }} LockEntry
 * @typedef {{ severity: string, title: string, url?: string }} Advisory
 */

/** @param {string} location @param {string} name @param {Record<string, LockEntry>} packages */
function resolveFrom(location, name, packages) {
  let base = location;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const nested = base.lastIndexOf('/node_modules/');
    base = nested >= 0 ? base.slice(0, nested) : '';
  }
}

/**
 * The third-party packages (name → versions) a user gets by installing the workspace at
 * `workspace` (its path in the lock, e.g. `packages/auth`).
 * @param {string} workspace
 * @param {Record<string, LockEntry>} packages the lock file's `packages`
 * @returns {Map<string, Set<string>>}
 */
export function productionTree(workspace, packages) {
  /** @type {Map<string, Set<string>>} */
  const found = new Map();
  const seen = new Set();
  /** @param {string} location */
  const visit = (location) => {
    if (seen.has(location)) return;
    seen.add(location);
    const entry = packages[location];
    if (!entry) return;
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of names) {
      const at = resolveFrom(location, name, packages);
      const target = at && packages[at];
      if (!at || !target) continue;
      if (target.link && target.resolved) {
        visit(target.resolved);
        continue;
      }
      const versions = found.get(name) ?? new Set();
      versions.add(target.version ?? '');
      found.set(name, versions);
      visit(at);
    }
  };
  visit(workspace);
  return found;
}

/**
 * Asks the registry's bulk advisory endpoint; undefined when the registry refuses it.
 * @param {string} registry
 * @param {Map<string, Set<string>>} tree
 * @returns {Promise<Map<string, Advisory[]> | undefined>}
 */
async function registryAdvisories(registry, tree) {
  const body = Object.fromEntries([...tree].map(([name, versions]) => [name, [...versions]]));
  const response = await fetch(new URL('-/npm/v1/security/advisories/bulk', registry), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
  if (!response?.ok) return undefined;
  const answer = /** @type {Record<string, Advisory[]>} */ (await response.json());
  return new Map(Object.entries(answer));
}

/**
 * Whether an OSV `affected` entry covers `version`.
 * @param {{ versions?: string[], ranges?: { type: string, events: Record<string, string>[] }[] }} affected
 * @param {string} version
 */
export function osvAffects(affected, version) {
  if (affected.versions?.includes(version)) return true;
  for (const range of affected.ranges ?? []) {
    if (range.type !== 'SEMVER') continue;
    let introduced;
    for (const event of range.events) {
      if (event.introduced !== undefined)
        introduced = event.introduced === '0' ? '0.0.0-0' : event.introduced;
      const end = event.fixed ?? event.last_affected;
      if (end !== undefined && introduced !== undefined) {
        const below = event.fixed !== undefined ? semver.lt(version, end) : semver.lte(version, end);
        if (semver.gte(version, introduced) && below) return true;
        introduced = undefined;
      }
    }
    if (introduced !== undefined && semver.gte(version, introduced)) return true;
  }
  return false;
}

/**
 * Advisories from OSV records in `directory` that affect the tree.
 * @param {string} directory
 * @param {Map<string, Set<string>>} tree
 * @returns {Map<string, Advisory[]>}
 */
export function osvAdvisories(directory, tree) {
  /** @type {Map<string, Advisory[]>} */
  const found = new Map();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    const record = JSON.parse(readFileSync(join(directory, file), 'utf8'));
    const severity = String(record.database_specific?.severity ?? 'unknown').toLowerCase();
    for (const affected of record.affected ?? []) {
      const { ecosystem, name } = affected.package ?? {};
      const versions = ecosystem === 'npm' ? tree.get(name) : undefined;
      if (!versions || ![...versions].some((version) => osvAffects(affected, version))) continue;
      found.set(name, [...(found.get(name) ?? []), { severity, title: record.summary ?? record.id }]);
    }
  }
  return found;
}

async function main() {
  const { values } = parseArgs({ options: { osv: { type: 'string' } } });
  const osvDirectory = values.osv ?? process.env.MALL_API_OSV_DIR;
  const registry = process.env.npm_config_registry ?? 'https://registry.npmjs.org/';
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8'));
  let failing = 0;
  for (const { directory, manifest } of publishedWorkspaces()) {
    const tree = productionTree(directory.slice(repoRoot.length + 1), lock.packages);
    const advisories = osvDirectory
      ? osvAdvisories(osvDirectory, tree)
      : await registryAdvisories(registry, tree);
    if (!advisories) {
      process.stdout.write(
        `${manifest.name}: ${tree.size} third-party packages, NOT AUDITED: ${registry} refuses bulk advisories; pass --osv DIR with OSV records\n`,
      );
      continue;
    }
    const serious = [...advisories].flatMap(([name, list]) =>
      list
        .filter((a) => /^(critical|high)$/i.test(a.severity))
        .map((a) => `${name}: ${a.severity} ${a.title}`),
    );
    const total = [...advisories.values()].reduce((sum, list) => sum + list.length, 0);
    process.stdout.write(
      `${manifest.name}: ${tree.size} third-party packages, ${total} advisories, ${serious.length} critical or high\n`,
    );
    for (const line of serious) process.stdout.write(`  ${line}\n`);
    failing += serious.length;
  }
  process.exitCode = failing > 0 ? 1 : 0;
}

if (import.meta.filename === process.argv[1]) await main();
