// @ts-check
// Optic's comparison of two dereferenced bundles, kept on disk (node_modules/.cache/mall-api/
// spec-diff) under a hash of both documents, the installed Optic packages' versions and the source
// of our own comparison and rules, so the breaking-change check, the release dry run and the
// changelog check of one checkout compare each pair once (Optic takes tens of seconds of CPU on the
// admin bundle). Any change to a document, to Optic or to our rules is another key, so a result is
// never read for inputs it was not computed from. A result is written whole (a temporary file
// renamed into place), so a run beside another never reads half of one.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
/** Where the comparisons are kept. */
export const comparisonCache = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'node_modules',
  '.cache',
  'mall-api',
  'spec-diff',
);

/** What the comparison depends on besides the documents: Optic's versions and our modules' source. */
const toolsKey = [
  ...['openapi-utilities', 'rulesets-base', 'standard-rulesets', 'json-pointer-helpers'].map(
    (name) => `${name}@${require(`@useoptic/${name}/package.json`).version}`,
  ),
  ...['spec-diff.mjs', 'narrowing-rules.mjs'].map((file) =>
    readFileSync(join(import.meta.dirname, file), 'utf8'),
  ),
].join('\n');

/**
 * The comparison of `from` with `to`: read from the cache, or computed by `compare` and kept.
 * @template {object} T a JSON-serializable result
 * @param {unknown} from
 * @param {unknown} to
 * @param {() => Promise<T>} compare
 * @param {string} [directory] where they are kept (a test's own)
 * @returns {Promise<T>}
 */
export async function cachedComparison(from, to, compare, directory = comparisonCache) {
  const key = createHash('sha256')
    .update(toolsKey)
    .update('\0')
    .update(JSON.stringify(from))
    .update('\0')
    .update(JSON.stringify(to))
    .digest('hex');
  const file = join(directory, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    const result = await compare();
    mkdirSync(directory, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(result));
    renameSync(partial, file);
    return result;
  }
}
