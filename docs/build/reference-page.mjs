// Renders the page of one API reference: our site header around Redoc 2 (served from
// docs/dist/assets, never a CDN), which renders the docs' copy of the bundled spec (with its
// generated code samples) from docs/dist/specs.
import { escapeHtml, siteHead, siteHeader } from './page-shell.mjs';

/** Redoc options shared by every reference page. */
const redocOptions = {
  scrollYOffset: 'header.site',
  hideDownloadButton: false,
  expandResponses: '200',
  jsonSampleExpandLevel: 3,
  requiredPropsFirst: true,
  sortPropsAlphabetically: false,
  pathInMiddlePanel: true,
  theme: {
    colors: { primary: { main: '#0b5cad' } },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans KR", sans-serif',
      headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
      code: { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' },
    },
    sidebar: { width: '260px' },
    rightPanel: { width: '45%' },
  },
};

/** Renders `docs/dist/<api>/index.html`. */
export function renderReferencePage(api, nav) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title: `${api.title} — reference`, depth: 1, description: api.summary, stylesheets: ['shell.css', 'reference.css'] })}
</head>
<body class="reference">
${siteHeader({ depth: 1, nav, current: `${api.name}/index.html` })}
<main id="content" aria-label="${escapeHtml(api.title)} reference"><div id="redoc"></div></main>
<script src="../assets/redoc.standalone.js"></script>
<script>
  // Code blocks scroll sideways: make each one reachable by keyboard, as they are rendered.
  const focusable = (root) => root.querySelectorAll?.('pre:not([tabindex])').forEach((pre) => pre.setAttribute('tabindex', '0'));
  const redoc = document.getElementById('redoc');
  new MutationObserver(() => focusable(redoc)).observe(redoc, { childList: true, subtree: true });
  Redoc.init('../specs/${api.name}.openapi.json', ${JSON.stringify(redocOptions)}, redoc);
</script>
</body>
</html>
`;
}
