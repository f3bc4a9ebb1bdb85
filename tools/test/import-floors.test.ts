// No import runs back up the floors: mock-server's folders stand on floors, from HTTP basics at the
// bottom to the package's entry points at the top, and a module may import its own floor or one
// below, never one above. The floors are the data below; the import graph is dpdm's (type-only
// imports included), over the package's non-test sources. Test files and test helpers (`testing/`)
// may reach anything, so they are left out.
import { readdirSync } from 'node:fs';
import { parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/published-packages.mjs';

const source = 'packages/mock-server/src';

/** mock-server's folders, bottom floor first; `.` is the package root, which holds its entries. */
const floors: readonly (readonly string[])[] = [
  ['http', 'process', 'faults', 'events', 'malls'],
  ['responses', 'oauth'],
  ['identity'],
  ['pipeline'],
  ['validation'],
  ['operations'],
  ['stages'],
  ['api-coverage', 'control'],
  ['metrics', 'proxy'],
  ['server'],
  ['qa'],
  ['.'],
];

type Graph = Readonly<Record<string, readonly { readonly id: string | null }[] | null>>;

/** The floor of a file under `root`, by its first folder; undefined for a folder no floor names. */
function floorOf(file: string, root: string): number | undefined {
  const inside = file.slice(root.length + 1);
  const folder = inside.includes('/') ? inside.slice(0, inside.indexOf('/')) : '.';
  const floor = floors.findIndex((names) => names.includes(folder));
  return floor < 0 ? undefined : floor;
}

/** Every import in `graph` from a file under `root` to a file under `root` on a higher floor. */
function upwardImports(graph: Graph, root: string): string[] {
  return Object.entries(graph).flatMap(([file, imports]) => {
    const floor = floorOf(file, root);
    if (floor === undefined) return [];
    return (imports ?? []).flatMap(({ id }) => {
      const target = id?.startsWith(`${root}/`) ? floorOf(id, root) : undefined;
      return target !== undefined && target > floor ? [`${file} -> ${id}`] : [];
    });
  });
}

describe('mock-server import floors', { timeout: 120_000 }, () => {
  it('are found when a lower floor imports a higher one', () => {
    const graph: Graph = {
      [`${source}/stages/answer.ts`]: [
        { id: `${source}/pipeline/reply.ts` },
        { id: `${source}/server/mock-api.ts` },
      ],
      [`${source}/pipeline/reply.ts`]: [{ id: `${source}/http/error-envelope.ts` }, { id: null }],
    };
    expect(upwardImports(graph, source)).toEqual([
      `${source}/stages/answer.ts -> ${source}/server/mock-api.ts`,
    ]);
  });

  it('name every folder of the package', () => {
    const folders = readdirSync(`${repoRoot}/${source}`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !floors.some((names) => names.includes(folder)))).toEqual([]);
  });

  it('are never climbed by an import in the package', async () => {
    const graph = await parseDependencyTree(`${source}/**/*.ts`, {
      context: repoRoot,
      transform: false,
      exclude: /node_modules|\/dist\/|\.test\.ts$|\.test-d\.ts$|\/testing\//,
    });
    expect(Object.keys(graph)).toContain(`${source}/stages/answer.ts`);
    expect(upwardImports(graph, source)).toEqual([]);
  });
});
