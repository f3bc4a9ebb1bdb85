// @ts-check
// The API changelogs (docs/changelogs/<api>.md, when the folder exists) as pages of the site:
// each rendered like a guide's text, its title taken from its first `#` heading. A description
// revision with release notes in specs/releases/<api>/ that the changelog does not list yet
// (declared, not yet cut) is shown first, headed as a description revision marked not yet
// released, with the API versions (release dates) the current document describes — so the page
// never reads a revision as an API version.
import { renderGuideBody } from './guide-pages.mjs';
import { escapeHtml, pageShell } from './page-shell.mjs';

/** @typedef {{ name: string, title: string, markdown: string }} Changelog */

/**
 * A changelog read from `<name>.md`.
 * @param {string} name
 * @param {string} markdown
 * @returns {Changelog}
 */
export function parseChangelog(name, markdown) {
  const heading = /^#\s+(.+)$/m.exec(markdown);
  return { name, title: heading?.[1]?.trim() ?? `${name} changelog`, markdown };
}

/** @param {string} a @param {string} b newest first, by the numbers of `major.minor.patch` */
const newestFirst = (a, b) => {
  const parts = (/** @type {string} */ version) =>
    version.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let index = 0; index < Math.max(x.length, y.length); index++) {
    const difference = (y[index] ?? 0) - (x[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
};

/** `markdown` without a leading YAML front matter block (the notes' `date:`). @param {string} markdown */
const withoutFrontMatter = (markdown) => markdown.replace(/^---\n[\s\S]*?\n---\n/, '');

/**
 * `changelog` with the description revisions of `notes` (release notes by revision, from
 * specs/releases/<api>/) that it has no `## Description <revision>` section for, put after its
 * introduction, newest first, each headed `## Description <revision> — not yet released` and
 * followed by `apiVersions`, the API versions the current document describes.
 * @param {Changelog} changelog
 * @param {{ version: string, markdown: string }[]} notes
 * @param {string} apiVersions e.g. `2020-09-01 (latest); header X-Platform-Api-Version`
 * @returns {Changelog}
 */
export function withPendingReleases(changelog, notes, apiVersions) {
  const listed = (/** @type {string} */ version) =>
    new RegExp(`^## Description ${version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`, 'm').test(
      changelog.markdown,
    );
  const pending = notes
    .filter((note) => !listed(note.version))
    .sort((a, b) => newestFirst(a.version, b.version));
  if (pending.length === 0) return changelog;
  const sections = pending
    .map(
      (note) =>
        `## Description ${note.version} — not yet released\n\nAPI versions described: ${apiVersions}.\n\n${withoutFrontMatter(
          note.markdown,
        )
          .trim()
          .replace(/^(#+) /gm, '#$1 ')}\n`,
    )
    .join('\n');
  const firstVersion = changelog.markdown.search(/^## /m);
  const markdown =
    firstVersion < 0
      ? `${changelog.markdown.trimEnd()}\n\n${sections}`
      : `${changelog.markdown.slice(0, firstVersion)}${sections}\n${changelog.markdown.slice(firstVersion)}`;
  return { ...changelog, markdown };
}

/**
 * The page of one changelog, `changelogs/<name>.html`.
 * @param {Changelog} changelog
 * @param {import('./page-shell.mjs').NavItem[]} nav
 */
export function renderChangelogPage(changelog, nav) {
  const { html } = renderGuideBody(changelog, {});
  const body = /<h1[ >]/.test(html) ? html : `<h1>${escapeHtml(changelog.title)}</h1>\n${html}`;
  return pageShell({
    title: `${changelog.title} — mall-api`,
    description: `Changes to ${changelog.title}.`,
    depth: 1,
    nav,
    current: `changelogs/${changelog.name}.html`,
    body: `<article class="guide changelog">\n${body}\n</article>`,
  });
}
