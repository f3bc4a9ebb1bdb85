// @ts-check
// The pieces every page of the site shares: the <head> links (and the inline line that picks the
// colour scheme before the page paints), the header with the site navigation (landing page,
// guides, one entry per API reference), the search dialog and the dark-mode toggle, the footer,
// the site script, and HTML escaping. Pages compose these; nothing here knows about a given API
// beyond the name and title it is handed.

/** @type {Record<string, string>} */
const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML content and attribute values.
 * @param {unknown} text
 */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => entities[c] ?? c);

/** @param {number} depth */
const up = (depth) => '../'.repeat(depth);

/** @typedef {{ href: string, label: string, section?: string }} NavItem */

/**
 * The reader's colour scheme (stored choice, else the system's), set before the page paints;
 * src/browser/theme.ts keeps it up to date.
 */
const themeLine = `<script>try{document.documentElement.dataset.theme=localStorage.getItem('mall-api-theme')||(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light')}catch(e){document.documentElement.dataset.theme='light'}</script>`;

/**
 * The site navigation, as links relative to the site root: the APIs (landing page), the guides,
 * then one reference per API. `current` is the root-relative path of the page being rendered.
 */
/**
 * @param {{ name: string, shortTitle: string }[]} apis
 * @returns {NavItem[]}
 */
export function siteNav(apis) {
  return [
    { href: 'index.html', label: 'APIs' },
    { href: 'guides/index.html', label: 'Guides', section: 'guides/' },
    ...apis.map((api) => ({ href: `${api.name}/index.html`, label: `${api.shortTitle} reference` })),
  ];
}

/**
 * Charset, viewport, title, description, icon and stylesheets (from `assets/`), relative to a page
 * `depth` folders below the root. Hand-made pages link shell.css and site.css; the references
 * carry shell.css and reference.css in the page instead (`styles`), so the site's element styles
 * never restyle Redoc and a phone paints without waiting for a stylesheet.
 */
export function siteHead(
  /** @type {{ title: string, depth?: number, description?: string, stylesheets?: string[], styles?: string }} */ {
    title,
    depth = 0,
    description,
    stylesheets = ['shell.css', 'site.css'],
    styles,
  },
) {
  return `<meta charset="utf-8">
${themeLine}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${description ? `\n<meta name="description" content="${escapeHtml(description)}">` : ''}
<link rel="icon" href="${up(depth)}assets/favicon.svg" type="image/svg+xml">
${stylesheets.map((sheet) => `<link rel="stylesheet" href="${up(depth)}assets/${sheet}">`).join('\n')}${styles === undefined ? '' : `<style>\n${styles}</style>`}`;
}

/** The search dialog the header's button (or `/`, Ctrl-K) opens; src/browser/search.ts runs it. */
const searchDialog = `<dialog class="search" aria-labelledby="search-label">
<div class="search-head"><label id="search-label" for="search-input">Search the guides and references</label><button type="button" class="search-close">Close</button></div>
<input id="search-input" type="search" autocomplete="off" placeholder="An operation, parameter or field name, a topic…">
<p class="search-status" role="status"></p>
<ol class="search-results"></ol>
</dialog>`;

/**
 * The site header: a skip link, the brand, the navigation (the current section marked), the
 * search button and the colour-scheme toggle, whose label (chosen by shell.css from the page's
 * `data-theme`, so it is right before any script runs) says the scheme it switches to.
 */
export function siteHeader(
  /** @type {{ depth?: number, nav?: NavItem[], current?: string }} */ {
    depth = 0,
    nav = [],
    current = 'index.html',
  },
) {
  const links = nav
    .map((item) => {
      const here = item.href === current || (item.section !== undefined && current.startsWith(item.section));
      return `<a href="${up(depth)}${item.href}"${here ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a>`;
    })
    .join('');
  return `<a class="skip" href="#content">Skip to content</a>
<header class="site"><a class="brand" href="${up(depth)}index.html">mall-api <span>docs</span></a><nav aria-label="Site">${links}</nav>
<div class="site-tools"><button type="button" class="search-open" aria-keyshortcuts="/ Control+K">Search <kbd>/</kbd></button><button type="button" class="theme-toggle"><span class="to-dark">Dark mode</span><span class="to-light">Light mode</span></button></div></header>
${searchDialog}`;
}

/**
 * The site script (search, dark-mode toggle), at the end of every page's body.
 * @param {number} depth
 */
export function siteScript(depth) {
  return `<script src="${up(depth)}assets/site.js"></script>`;
}

/** The footer every page ends with. */
export function siteFooter(/** @type {{ depth?: number }} */ { depth = 0 }) {
  return `<footer class="site">mall-api — contract-first specs, clients and mocks for the mall platform's APIs.
Every page here is built from the OpenAPI documents in <code>specs/</code> ·
<a href="${up(depth)}guides/index.html">Guides</a> · <a href="${up(depth)}index.html#downloads">Downloads</a> · <a href="${up(depth)}llms.txt">llms.txt</a></footer>`;
}

/**
 * A complete hand-made page (landing, guides). `current` is its root-relative path.
 * @param {{ title: string, body: string, depth?: number, nav?: NavItem[], current?: string,
 *   description?: string }} page
 */
export function pageShell({ title, body, depth = 0, nav = [], current = 'index.html', description }) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title, depth, ...(description ? { description } : {}) })}
</head>
<body>
${siteHeader({ depth, nav, current })}
<main id="content">
${body}
</main>
${siteFooter({ depth })}
${siteScript(depth)}
</body>
</html>
`;
}
