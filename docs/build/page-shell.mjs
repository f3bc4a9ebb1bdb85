// The pieces every page of the site shares: the <head> links, the header with the site
// navigation, and HTML escaping. Pages compose these; nothing here knows about a given API.

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

const up = (depth) => '../'.repeat(depth);

/** Charset, viewport, title, stylesheet and icon, relative to a page `depth` folders below the root. */
export function siteHead({ title, depth = 0 }) {
  return `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${up(depth)}assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${up(depth)}assets/site.css">`;
}

/** The site header with its navigation. */
export function siteHeader({ depth = 0 }) {
  return `<header class="site"><a class="brand" href="${up(depth)}index.html">mall-api</a><nav aria-label="Site"><a href="${up(depth)}index.html">APIs</a></nav></header>`;
}

/** A complete hand-made page (landing, guides). */
export function pageShell({ title, body, depth = 0 }) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title, depth })}
</head>
<body>
${siteHeader({ depth })}
<main>
${body}
</main>
<footer>mall-api — contract-first specs, clients and mocks for the mall platform's APIs.</footer>
</body>
</html>
`;
}
