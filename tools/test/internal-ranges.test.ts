// One package installs from its tarball beside its published siblings: every published package
// names each @mall-api package it needs at run time with a caret range (`^0.1.0`), never an exact
// version, so a sibling already published at any compatible version satisfies it.
import { describe, expect, it } from 'vitest';
import { publishedWorkspaces } from '../src/published-packages.mjs';

type Manifest = Partial<
  Record<'dependencies' | 'optionalDependencies' | 'peerDependencies', Record<string, string>>
>;

describe.each(publishedWorkspaces().map(({ manifest }) => [manifest.name, manifest as Manifest]))(
  '%s',
  (_, manifest) => {
    it('needs its @mall-api siblings at caret ranges', () => {
      const internal = (['dependencies', 'optionalDependencies', 'peerDependencies'] as const).flatMap(
        (field) => Object.entries(manifest[field] ?? {}).filter(([name]) => name.startsWith('@mall-api/')),
      );
      for (const [name, range] of internal) expect(range, name).toMatch(/^\^\d+\.\d+\.\d+$/);
    });
  },
);
