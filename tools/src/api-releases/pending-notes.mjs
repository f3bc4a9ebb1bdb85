// @ts-check
// Writing the generated block (release-notes.mjs) into the notes of an API's pending description
// revision: the diff of the current bundle against the last released one.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentBundlePath, readBundle, releasedVersions, releasesDirectory } from './api-releases.mjs';
import { generatedBlock, withGeneratedBlock } from './release-notes.mjs';
import { diffBundles } from './spec-diff.mjs';

/**
 * Writes the pending revision's notes of `api` with every change generated; returns what it did.
 * @param {string} api
 * @param {string | undefined} root the repository root
 * @returns {Promise<string>}
 */
export async function writePendingNotes(api, root) {
  const current = readBundle(currentBundlePath(api, root));
  const version = String(current.info?.version);
  const last = releasedVersions(api, root).at(-1);
  if (!last) return `${api}: no released revision yet; nothing to compare`;
  if (last.version === version) return `${api} ${version}: released; no pending notes`;
  const diffed = await diffBundles(readBundle(last.bundle), current);
  const file = join(releasesDirectory(api, root), `${version}.md`);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : `Description revision ${version}.\n`;
  const after = withGeneratedBlock(before, generatedBlock(last.version, diffed));
  if (after !== before) writeFileSync(file, after);
  return `specs/releases/${api}/${version}.md${after === before ? ' (unchanged)' : ''}`;
}
