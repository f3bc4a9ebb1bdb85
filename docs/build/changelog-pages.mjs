// @ts-check
// The API changelogs (docs/changelogs/<api>.md, when the folder exists) as pages of the site:
// each rendered like a guide's text, its title taken from its first `#` heading.
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
