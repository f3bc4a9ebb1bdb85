// @ts-check
// An API's changelog, generated from its released bundles: newest description revision first, each
// with its date, the API versions (release dates) it describes, its release notes, then what changed
// since the revision before (added, changed, deprecated, removed, breaks found), computed by diffing
// the two bundles. A revision is not an API version: the headings say "Description".
import { apiVersionDates, readBundle, releasedVersions } from './api-releases.mjs';
import { changeSections, withoutGeneratedBlock } from './release-notes.mjs';
import { diffBundles } from './spec-diff.mjs';

/**
 * The API versions a bundle describes (`x-api-versions`), in words.
 * @param {Record<string, any>} bundle
 */
export function apiVersionsLine(bundle) {
  const dates = apiVersionDates(bundle);
  if (!dates) return 'API versions: not yet recorded as data in this revision.';
  return dates.length > 0
    ? `API versions described: ${dates.join(', ')} (\`${bundle['x-api-versions'].header}\`; the first is the latest).`
    : 'API versions described: none (the API publishes no versions).';
}

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
    const bundle = readBundle(release.bundle);
    const lines = [
      `## Description ${release.version}${release.notes.date ? ` — ${release.notes.date}` : ''}`,
      '',
      apiVersionsLine(bundle),
      '',
    ];
    // The notes' own headings sit below the revision's heading.
    const body = withoutGeneratedBlock(release.notes.body)
      .trim()
      .replace(/^(#+) /gm, '#$1 ');
    if (body) lines.push(body, '');
    const previous = releases[index - 1];
    if (previous) lines.push(...changeSections(await diffBundles(readBundle(previous.bundle), bundle)));
    sections.unshift(lines.join('\n'));
  }
  return [
    `# ${title}: changelog`,
    '',
    `Every released revision of our description of the ${api} API (\`info.version\`), newest first, with`,
    "its date, the API versions it describes (the platform's own, by release date) and its notes, then",
    'what changed since the revision before, found by diffing the released OpenAPI bundles.',
    '',
    ...sections,
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
