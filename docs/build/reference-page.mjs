// @ts-check
// Renders the page of one API reference: our site header around Redoc 2 (assets/redoc.js, built
// by the docs build, never a CDN), which renders the docs' copy of the bundled spec (with its
// generated code samples; `<api>.redoc.json`, see redoc-spec.mjs) from docs/dist/specs once, with
// a theme whose colours are CSS custom properties set per colour scheme (redoc-theme.mjs), so
// switching light and dark changes CSS only: no second render, the scroll position and anchor
// stay. And the "Try it" console (assets/console.js, with the list of operations that get a Try it
// button; its data loads on first use).
import { escapeHtml, siteHead, siteHeader, siteScript } from './page-shell.mjs';
import { schemeSwitchingTheme } from './redoc-theme.mjs';

/** Redoc's theme for both schemes (CSS custom properties) and the CSS that sets them per scheme. */
const themed = schemeSwitchingTheme();

/** Redoc options shared by every reference page. */
const redocOptions = {
  scrollYOffset: 'header.site',
  hideDownloadButton: false,
  expandResponses: '200',
  jsonSampleExpandLevel: 3,
  requiredPropsFirst: true,
  sortPropsAlphabetically: false,
  pathInMiddlePanel: true,
};

/**
 * What the page shows before Redoc has loaded (plain HTML, so the reader has the API's summary,
 * addresses and downloads at once): it stays above the rendered reference.
 * @param {{ name: string, title: string, summary: string, version: string, base: { template: string }, mockUrl: string }} api
 */
const intro = (api) => `<section class="reference-intro" aria-label="About the ${escapeHtml(api.title)}">
<p class="reference-lede">${escapeHtml(api.summary)}</p>
<p class="reference-facts">Version ${escapeHtml(api.version)} · base URL <code>${escapeHtml(api.base.template)}</code> · local mock <code>${escapeHtml(api.mockUrl)}</code> · every operation has a <strong>Try it</strong> button.</p>
<p class="reference-facts">Download: <a href="../specs/${api.name}.openapi.yaml" download>YAML</a> · <a href="../specs/${api.name}.openapi.json" download>JSON</a> · <a href="../postman/${api.name}.postman_collection.json" download>Postman</a> · <a href="reference.md">Markdown</a></p>
</section>`;

/**
 * Renders `docs/dist/<api>/index.html`. `tryIt` lists the operations that get a "Try it" button
 * (the console's data, `console.json`, loads when the first one is pressed). Redoc and the
 * scripts load deferred, so the page paints its header and intro first.
 * @param {{ name: string, title: string, summary: string, version: string, base: { template: string }, mockUrl: string }} api
 * @param {import('./page-shell.mjs').NavItem[]} nav
 * @param {{ operationId: string, summary: string }[]} tryIt
 */
export function renderReferencePage(api, nav, tryIt) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title: `${api.title} — reference`, depth: 1, description: api.summary, stylesheets: ['shell.css', 'reference.css'] })}
<style>
${themed.css}</style>
</head>
<body class="reference" data-api="${escapeHtml(api.name)}">
${siteHeader({ depth: 1, nav, current: `${api.name}/index.html` })}
<main id="content" aria-label="${escapeHtml(api.title)} reference">${intro(api)}<div id="redoc"></div></main>
<script src="../assets/redoc.js" defer></script>
<script>
addEventListener('DOMContentLoaded', () => {
  // Code blocks scroll sideways: make each one reachable by keyboard, as they are rendered.
  const focusable = (root) => root.querySelectorAll?.('pre:not([tabindex])').forEach((pre) => pre.setAttribute('tabindex', '0'));
  const redoc = document.getElementById('redoc');
  new MutationObserver(() => focusable(redoc)).observe(redoc, { childList: true, subtree: true });
  const theme = ${JSON.stringify(themed.theme)};
  Redoc.init('../specs/${api.name}.redoc.json', { ...${JSON.stringify(redocOptions)}, theme }, redoc);
});
</script>
<script type="application/json" id="try-it-operations">${JSON.stringify(tryIt).replace(/</g, '\\u003c')}</script>
<script src="../assets/console.js" defer></script>
${siteScript(1)}
</body>
</html>
`;
}
