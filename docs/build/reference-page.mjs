// @ts-check
// Renders the page of one API reference: our site header around Redoc 2's reference, which the
// docs build has already rendered into the page (redoc-prerender.mjs: every operation is in the
// HTML, with its styles) and which assets/redoc.js (built by the docs build, never a CDN) hydrates
// from the docs' copy of the bundled spec (with its generated code samples; `<api>.redoc.json`,
// see redoc-spec.mjs), with a theme whose colours are CSS custom properties set per colour scheme
// (redoc-theme.mjs), so switching light and dark changes CSS only: no second render, the scroll
// position and anchor stay. And the "Try it" console (assets/console.js; its buttons are in
// Redoc's markup, its data loads on first use), which, like the menu, works before Redoc is live.
// Redoc itself starts only when the reader first needs one of its controls (assets/redoc-standin.js),
// and a code-sample tab tapped before then shows its sample at once (src/browser/redoc-tabs.ts).
// The HTML carries Redoc's first sections only; the rest follows the page (reference-split.mjs).
import { escapeHtml, siteHead, siteHeader, siteScript } from './page-shell.mjs';
import { schemeSwitchingTheme } from './redoc-theme.mjs';

/** Redoc's theme for both schemes (CSS custom properties) and the CSS that sets them per scheme. */
const themed = schemeSwitchingTheme();

/**
 * Redoc options of every reference page; the build prerenders with the same ones (less
 * `scrollYOffset`, a selector only the browser can use), so the markup matches what hydrates.
 */
export const redocOptions = {
  theme: themed.theme,
  scrollYOffset: 'header.site',
  // The page's own intro offers the downloads (YAML, JSON, Postman, Markdown).
  hideDownloadButton: true,
  expandResponses: '200',
  jsonSampleExpandLevel: 3,
  requiredPropsFirst: true,
  sortPropsAlphabetically: false,
  pathInMiddlePanel: true,
};

/**
 * One line above Redoc's own header (its title, version and description): where the API answers
 * and the downloads, which Redoc's header does not give.
 * @param {{ name: string, title: string, base: { template: string }, mockUrl: string }} api
 */
const facts = (api) =>
  `<p class="reference-facts" aria-label="About the ${escapeHtml(api.title)}">Base URL <code>${escapeHtml(api.base.template)}</code> · local mock <code>${escapeHtml(api.mockUrl)}</code> · download <a href="../specs/${api.name}.openapi.yaml" download>YAML</a> · <a href="../specs/${api.name}.openapi.json" download>JSON</a> · <a href="../postman/${api.name}.postman_collection.json" download>Postman</a> · <a href="reference.md">Markdown</a></p>`;

/** Where a reader without JavaScript finds the operations the page's HTML leaves to rest.html. */
const noScriptRest =
  '<noscript><p class="reference-rest">Without JavaScript this page shows the first operations only: the whole reference is in <a href="reference.md">Markdown</a>.</p></noscript>';

/**
 * Renders `docs/dist/<api>/index.html`. `prerendered` is Redoc's markup and styles for the page
 * (redoc-prerender.mjs; absent in a `--no-prerender` build, where Redoc renders in the browser),
 * with the operations' "Try it" buttons in it (try-it-buttons.mjs); with it, `#redoc` names the
 * highlighted code samples (`samples/<operationId>.json`) the stand-in shows in a sample tab before Redoc is live,
 * and, when `rest` has sections, carries only the first ones: the others (`rest.html`, see
 * reference-split.mjs) follow once the page has loaded, and a reader without JavaScript is pointed
 * to the Markdown copy.
 * The page is usable without Redoc: the stand-in (assets/redoc-standin.js, small and
 * asynchronous) loads at once and the console (assets/console.js) once the page is parsed
 * (deferred); they answer the menu, anchors and Try it on the prerendered markup. Redoc itself (assets/redoc.js, large; the `#redoc` element names
 * it, its spec, and the options in `#redoc-options`) is fetched and run only when the reader first
 * uses one of its own controls (tabs, expanders, its search), so its seconds-long start-up never
 * holds up the first taps; it then hydrates the markup in slices (see src/browser/redoc-on-demand.ts
 * and redoc-reference.mjs).
 * The page's own styles (`css`: the text of shell.css and reference.css) are in its head, not
 * linked: on a phone, the two stylesheets' requests were what the first paint waited for.
 * The console's script is deferred: run once the page is parsed, it does not hold up the first
 * operation's paint.
 * @param {{ name: string, title: string, summary: string, version: string, base: { template: string }, mockUrl: string }} api
 * @param {import('./page-shell.mjs').NavItem[]} nav
 * @param {string} css
 * @param {{ html: string, styles: string, rest: string[] }} [prerendered]
 */
export function renderReferencePage(api, nav, css, prerendered) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title: `${api.title} — reference`, depth: 1, description: api.summary, stylesheets: [], styles: `${css}${themed.css}` })}
${prerendered?.styles ?? ''}
</head>
<body class="reference" data-api="${escapeHtml(api.name)}">
<script src="../assets/console.js" defer></script>
<script src="../assets/redoc-standin.js" async></script>
${siteHeader({ depth: 1, nav, current: `${api.name}/index.html` })}
<main id="content" aria-label="${escapeHtml(api.title)} reference">${facts(api)}<div id="redoc" data-script="../assets/redoc.js" data-spec="../specs/${api.name}.redoc.json"${prerendered ? ' data-samples="samples/"' : ''}${prerendered?.rest.length ? ' data-rest="rest.html"' : ''}>${prerendered?.html ?? ''}</div>${prerendered?.rest.length ? noScriptRest : ''}</main>
<script type="application/json" id="redoc-options">${JSON.stringify(redocOptions).replaceAll('<', '\\u003c')}</script>
${siteScript(1)}
</body>
</html>
`;
}
