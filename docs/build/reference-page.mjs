// @ts-check
// Renders the page of one API reference: our site header around Redoc 2 (served from
// docs/dist/assets, never a CDN), which renders the docs' copy of the bundled spec (with its
// generated code samples; `<api>.redoc.json`, see redoc-spec.mjs) from docs/dist/specs in the light
// or dark theme the page shows (rendering again, at the same anchor and scroll position, when the
// reader switches), and the "Try it" console (assets/console.js, with the list of operations that
// get a Try it button; its data loads on first use).
import { escapeHtml, siteHead, siteHeader, siteScript } from './page-shell.mjs';

const fonts = {
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans KR", sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  code: { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' },
};

/** Redoc's theme per colour scheme; the dark one keeps every text at 4.5:1 or more. */
const redocThemes = {
  light: {
    colors: { primary: { main: '#0b5cad' } },
    typography: fonts,
    sidebar: { width: '260px' },
    rightPanel: { width: '45%' },
  },
  dark: {
    colors: {
      primary: { main: '#8cc4ff' },
      text: { primary: '#e6e9ef', secondary: '#c3cad8' },
      border: { dark: '#5b6478', light: '#2b3345' },
      gray: { 50: '#1c2230', 100: '#262d3d' },
      success: { main: '#6fd08c' },
      error: { main: '#ff9b8f' },
      warning: { main: '#ffc266' },
      responses: {
        success: { color: '#7fe09b', backgroundColor: 'rgba(127, 224, 155, 0.08)' },
        error: { color: '#ffaaa0', backgroundColor: 'rgba(255, 170, 160, 0.08)' },
        redirect: { color: '#ffc266', backgroundColor: 'rgba(255, 194, 102, 0.08)' },
        info: { color: '#8cc4ff', backgroundColor: 'rgba(140, 196, 255, 0.08)' },
      },
    },
    schema: {
      nestedBackground: '#1c2230',
      typeNameColor: '#c3cad8',
      typeTitleColor: '#c3cad8',
      linesColor: '#5b6478',
      requireLabelColor: '#ff9b8f',
      labelsTextSize: '0.9em',
    },
    typography: {
      ...fonts,
      code: { ...fonts.code, color: '#ffb8ad', backgroundColor: '#262d3d' },
      links: { color: '#8cc4ff', visited: '#c9a8ff', hover: '#b8dcff' },
    },
    sidebar: { width: '260px', backgroundColor: '#161b26', textColor: '#e6e9ef', activeTextColor: '#8cc4ff' },
    // The right panel is dark in both schemes: Redoc's own colours, which pass.
    rightPanel: { width: '45%' },
  },
};

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
</head>
<body class="reference" data-api="${escapeHtml(api.name)}">
${siteHeader({ depth: 1, nav, current: `${api.name}/index.html` })}
<main id="content" aria-label="${escapeHtml(api.title)} reference">${intro(api)}<div id="redoc"></div></main>
<script src="../assets/redoc.standalone.js" defer></script>
<script>
addEventListener('DOMContentLoaded', () => {
  // Code blocks scroll sideways: make each one reachable by keyboard, as they are rendered.
  const focusable = (root) => root.querySelectorAll?.('pre:not([tabindex])').forEach((pre) => pre.setAttribute('tabindex', '0'));
  const redoc = document.getElementById('redoc');
  new MutationObserver(() => focusable(redoc)).observe(redoc, { childList: true, subtree: true });
  const options = ${JSON.stringify(redocOptions)};
  const themes = ${JSON.stringify(redocThemes)};
  const render = (done) => Redoc.init('../specs/${api.name}.redoc.json', { ...options, theme: themes[document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light'] }, redoc, done);
  render();
  // Redoc's theme is fixed when it renders (its colours go through functions that need real
  // colours, not CSS variables): a new theme renders again, keeps the anchor, and puts the section
  // that was at the top of the view back at the same place once Redoc has laid it out.
  const topSection = () => {
    const below = (document.querySelector('header.site')?.offsetHeight ?? 0) + 8;
    const section = document.elementFromPoint(window.innerWidth / 2, below)?.closest('[data-section-id]');
    return section ? { id: section.getAttribute('data-section-id'), offset: section.getBoundingClientRect().top } : undefined;
  };
  document.addEventListener('themechange', () => {
    const anchor = location.hash;
    const kept = topSection();
    render(() => {
      if (location.hash !== anchor) history.replaceState(null, '', anchor || location.pathname);
      if (!kept) return;
      setTimeout(() => {
        const section = document.querySelector('[data-section-id="' + CSS.escape(kept.id) + '"]');
        if (section) window.scrollBy(0, section.getBoundingClientRect().top - kept.offset);
      }, 50);
    });
  });
});
</script>
<script type="application/json" id="try-it-operations">${JSON.stringify(tryIt).replace(/</g, '\\u003c')}</script>
<script src="../assets/console.js" defer></script>
${siteScript(1)}
</body>
</html>
`;
}
