// The docs' lint check over the guides and changelogs (build/check-guide-words.mjs): prose with a
// maintainers' word is a finding at its line; code, fenced or inline, is not (a `--seed` option is
// a name the reader types); and the guides as they are have no finding.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guideWordFindings } from '../build/check-guide-words.mjs';

describe('the guides’ wording check', () => {
  it('finds a maintainers’ word in prose, at its line', () => {
    expect(guideWordFindings('# Title\n\nThe mall starts from the seed.\n')).toEqual([
      { line: 3, name: '"seed"', match: 'seed' },
    ]);
  });

  it('leaves code alone', () => {
    expect(
      guideWordFindings('Run `mall-api-mock --seed 1`.\n\n```sh\nnpx mall-api-mock --seed 2\n```\n'),
    ).toEqual([]);
  });

  it('finds nothing in the guides', async () => {
    const folder = join(import.meta.dirname, '..', 'guides');
    for (const file of (await readdir(folder)).filter((name) => name.endsWith('.md')))
      expect(guideWordFindings(await readFile(join(folder, file), 'utf8')), file).toEqual([]);
  });
});
