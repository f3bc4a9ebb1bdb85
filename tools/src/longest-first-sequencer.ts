// Vitest sequencer that starts the longest test files first, whatever their project, so that no
// long file starts last and runs alone while the other workers wait. Vitest's own order keeps
// projects one after another (by name), which put the slowest file of the run, in `tools`, at
// the very end. A file's length is its duration in the previous run when vitest remembers one
// for every file (a fresh clone remembers none); otherwise files in Chromium come first, then
// integration files, then the rest, and larger files before smaller ones within each. The files
// of a project whose files share a worker's modules (`isolate: false`) run one after another, at
// the place of its longest file: vitest hands a worker on to the next file only when that file is
// of the same project, so interleaved with other projects' files each would start a worker anew.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What is known of one test file when the run is ordered. */
export interface FileFacts {
  /** Path of the file. */
  readonly file: string;
  /** Its duration in the previous run (ms), when vitest remembers it. */
  readonly durationMs?: number | undefined;
  /** Its size in bytes. */
  readonly size?: number | undefined;
  /** The project it runs in, when that project's files share a worker's modules (run together). */
  readonly sharing?: string | undefined;
}

/** 2 for a file in Chromium, 1 for an integration file, 0 for the rest. */
export const kindRank = (file: string): number =>
  file.endsWith('.browser.test.ts') ? 2 : file.endsWith('.int.test.ts') ? 1 : 0;

/** Negative when `a` should start before `b`, by kind, then the larger file first. */
const byKindAndSize = (a: FileFacts, b: FileFacts): number =>
  kindRank(b.file) - kindRank(a.file) || (b.size ?? 0) - (a.size ?? 0);

/**
 * The files longest-looking first: by the previous run's durations when vitest remembers one for
 * every file, otherwise by kind and size (one measure for all, so the order is total); the files
 * of one sharing project together, longest first, where its longest file would be.
 */
export function longestFirst<T extends FileFacts>(files: readonly T[]): T[] {
  const timed = files.every((file) => file.durationMs !== undefined);
  const sorted = [...files].sort(timed ? (a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0) : byKindAndSize);
  const together = new Map<string, T[]>();
  for (const file of sorted)
    if (file.sharing !== undefined) together.set(file.sharing, [...(together.get(file.sharing) ?? []), file]);
  return sorted.flatMap((file) => {
    if (file.sharing === undefined) return [file];
    const group = together.get(file.sharing) ?? [];
    return group[0] === file ? group : [];
  });
}

export default class LongestFirstSequencer extends BaseSequencer {
  /** The files of the run, longest-looking first (see the module header). */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const facts = files.map((spec) => {
      const key = `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
      return {
        spec,
        file: spec.moduleId,
        durationMs: cache.getFileTestResults(key)?.duration,
        size: cache.getFileStats(key)?.size,
        sharing: spec.project.config.isolate ? undefined : spec.project.name,
      };
    });
    return longestFirst(facts).map(({ spec }) => spec);
  }
}
