// The lint refuses maintainers' words in what partners read: the `partner` Redocly plugin's `words`
// rule (specs/lint/partner-words.js) fails on a description, summary or title that speaks of the
// seed, a numbered section of a source or provenance, and leaves `$comment`s, `x-provenance`, the
// text inside `x-` extensions (which the docs strip) and the citations partners can follow (RFC
// sections) alone.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalWording } from '../lint/partner-words.js';

const run = promisify(execFile);
const specs = join(import.meta.dirname, '..');
const redocly = join(specs, '..', 'node_modules', '.bin', 'redocly');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'partner-words-lint-'));
  await writeFile(
    join(directory, 'redocly.yaml'),
    `plugins:\n  - ${join(specs, 'lint', 'partner-words.js')}\nrules:\n  partner/words: error\n`,
  );
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** Lints a document whose one operation has `description`; resolves to the rule's messages. */
async function lint(description: string): Promise<string[]> {
  const file = join(directory, 'openapi.yaml');
  await writeFile(
    file,
    `openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /items:
    get:
      summary: List items
      description: ${JSON.stringify(description)}
      x-provenance: inferred
      $comment: The seed says nothing here (section 2.8).
      x-rule:
        description: Inferred; the seed names it only (the docs strip x- extensions).
      responses:
        '200': { description: ok }
`,
  );
  const output = await run(redocly, ['lint', '--config', join(directory, 'redocly.yaml'), file]).then(
    (result) => result.stdout + result.stderr,
    (error: { stdout: string; stderr: string }) => error.stdout + error.stderr,
  );
  return output.split('\n').filter((line) => line.includes('write what the partner needs'));
}

describe('the partner/words lint rule', { timeout: 60_000 }, () => {
  it('fails a description that names the seed, a source section or provenance', async () => {
    await expect(lint('Beyond the seed: documented by the platform reference.')).resolves.toHaveLength(1);
    await expect(lint('Display order (section 2.6 says 1 to 999998).')).resolves.toHaveLength(1);
    await expect(lint('Marked `x-provenance: inferred`.')).resolves.toHaveLength(1);
  });

  it('passes partners’ words, with $comment, x-provenance and an x- extension’s own description beside them', async () => {
    await expect(
      lint('Errors follow RFC 6749 section 4.1.2.1; removing from section 1 of a category.'),
    ).resolves.toEqual([]);
  });
});

describe('internalWording', () => {
  it('names the word it found, or nothing', () => {
    expect(internalWording('The seeds do not say.')?.name).toBe('"seed"');
    expect(internalWording('as the reference says')?.name).toBe('"the reference says"');
    expect(internalWording('What the sandbox sends: one token every two seconds.')).toBeUndefined();
  });
});
