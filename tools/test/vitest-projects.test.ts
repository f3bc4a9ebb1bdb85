// The root vitest configuration's projects, as a workspace's own `npm test` uses them: each
// project's root is an absolute folder (vitest resolves a relative one from the working directory,
// which is the workspace's folder there), and every project a workspace's test script names exists
// and has that workspace's folder as its root.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const repository = join(import.meta.dirname, '..', '..');
const manifest = (folder: string) =>
  JSON.parse(readFileSync(join(repository, folder, 'package.json'), 'utf8')) as {
    workspaces?: string[];
    scripts?: { test?: string };
  };
// Loaded by path: the configuration is vitest's to type-check, not this package's.
const config: { default: { test: { projects: { test: { name: string; root: string } }[] } } } = await import(
  pathToFileURL(join(repository, 'vitest.config.ts')).href
);
const projects = config.default.test.projects;
const rootOf = new Map(projects.map(({ test }) => [test.name, test.root]));

describe('vitest projects', () => {
  it('have absolute roots that exist', () => {
    expect(projects.length).toBeGreaterThan(0);
    for (const [name, root] of rootOf) {
      expect(isAbsolute(root), name).toBe(true);
      expect(existsSync(join(root, 'package.json')), name).toBe(true);
    }
  });

  it("are the ones each workspace's test script names, rooted at its folder", () => {
    let named = 0;
    for (const folder of manifest('.').workspaces ?? []) {
      for (const [, name = ''] of manifest(folder).scripts?.test?.matchAll(/--project (\S+)/g) ?? []) {
        expect(rootOf.get(name), `${folder}: --project ${name}`).toBe(join(repository, folder));
        named += 1;
      }
    }
    expect(named).toBeGreaterThan(10);
  });
});
