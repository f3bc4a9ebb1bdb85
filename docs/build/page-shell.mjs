// The pieces every page of the site shares: the <head> links, the header with the site navigation
// (landing page, guides, one entry per API reference), the footer, and HTML escaping. Pages compose
// these; nothing here knows about a given API beyond the name and title it is handed.

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

const up = (depth) => '../'.repeat(depth);

/**
 * The site navigation, as links relative to the site root: the APIs (landing page), the guides,
 * then one reference per API. `current` is the root-relative path of the page being rendered.
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
 * `depth` folders below the root. Hand-made pages use shell.css and site.css; the references
 * shell.css and reference.css, so the site's element styles never restyle Redoc.
 */
export function siteHead({ title, depth = 0, description, stylesheets = ['shell.css', 'site.css'] }) {
  return `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${description ? `\n<meta name="description" content="${escapeHtml(description)}">` : ''}
<link rel="icon" href="${up(depth)}assets/favicon.svg" type="image/svg+xml">
${stylesheets.map((sheet) => `<link rel="stylesheet" href="${up(depth)}assets/${sheet}">`).join('\n')}`;
}

/** The site header: a skip link, the brand and the navigation (the current section marked). */
export function siteHeader({ depth = 0, nav = [], current = 'index.html' }) {
  const links = nav
    .map((item) => {
      const here = item.href === current || (item.section !== undefined && current.startsWith(item.section));
      return `<a href="${up(depth)}${item.href}"${here ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a>`;
    })
    .join('');
  return `<a class="skip" href="#content">Skip to content</a>
<header class="site"><a class="brand" href="${up(depth)}index.html">mall-api <span>docs</span></a><nav aria-label="Site">${links}</nav></header>`;
}

/** The footer every page ends with. */
export function siteFooter({ depth = 0 }) {
  return `<footer class="site">mall-api — contract-first specs, clients and mocks for the mall platform's APIs.
Every page here is built from the OpenAPI documents in <code>specs/</code> ·
<a href="${up(depth)}guides/index.html">Guides</a> · <a href="${up(depth)}index.html#downloads">Spec downloads</a></footer>`;
}

/** A complete hand-made page (landing, guides). `current` is its root-relative path. */
export function pageShell({ title, body, depth = 0, nav = [], current = 'index.html', description }) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title, depth, description })}
</head>
<body>
${siteHeader({ depth, nav, current })}
<main id="content">
${body}
</main>
${siteFooter({ depth })}
</body>
</html>
`;
}
