// @ts-check
// An API's changelog, generated from its released bundles: newest version first, each with its
// date and release notes, then what changed since the version before (added, changed, deprecated,
// removed, and the breaking changes it declared), computed by diffing the two bundles.
import { readBundle, releasedVersions } from './api-releases.mjs';
import { summarizeChanges } from './change-summary.mjs';
import { diffBundles } from './spec-diff.mjs';

const headings = /** @type {const} */ ([
  ['added', 'Added'],
  ['changed', 'Changed'],
  ['deprecated', 'Deprecated'],
  ['removed', 'Removed'],
]);

/**
 * The Markdown changelog of one API.
 * @param {string} api
 * @param {string} [root] the repository root
 * @returns {Promise<string>}
 */
export async function renderChangelog(api, root) {
  const releases = releasedVersions(api, root);
  const newest = releases.at(-1);
  const title = newest ? readBundle(newest.bundle).info.title : api;
  const sections = [];
  for (const [index, release] of releases.entries()) {
    const lines = [`## ${release.version}${release.notes.date ? ` — ${release.notes.date}` : ''}`, ''];
    if (release.notes.body) lines.push(release.notes.body, '');
    const previous = releases[index - 1];
    if (previous) {
      const diffed = await diffBundles(readBundle(previous.bundle), readBundle(release.bundle));
      const summary = summarizeChanges(diffed.grouped, diffed);
      for (const [key, heading] of headings) {
        if (summary[key].length === 0) continue;
        lines.push(`### ${heading}`, '', ...summary[key].map((line) => `- ${line}`), '');
      }
      if (diffed.breaking.length > 0)
        lines.push(
          '### Breaking changes found',
          '',
          ...diffed.breaking.map((change) => `- ${change.where}: ${change.message}`),
          '',
        );
    }
    sections.unshift(lines.join('\n'));
  }
  return [
    `# ${title}: changelog`,
    '',
    `Every released version of the ${api} API, newest first, with its date and release notes, then what`,
    'changed since the version before, found by diffing the released OpenAPI bundles.',
    '',
    ...sections,
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
