// Renders the page of one API reference: our site header around Redoc 2 (served from
// docs/dist/assets, never a CDN), which renders the bundled spec downloaded from docs/dist/specs.
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
    sidebar: { width: '280px' },
  },
};

/** Renders `docs/dist/<api>/index.html`. */
export function renderReferencePage(api) {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title: `${api.title} — reference`, depth: 1 })}
<style>header.site { position: sticky; top: 0; z-index: 10; } main#redoc { max-width: none; margin: 0; padding: 0; }</style>
</head>
<body>
${siteHeader({ depth: 1 })}
<main id="redoc" aria-label="${escapeHtml(api.title)} reference"></main>
<script src="../assets/redoc.standalone.js"></script>
<script>
  Redoc.init('../specs/${api.name}.openapi.json', ${JSON.stringify(redocOptions)}, document.getElementById('redoc'));
</script>
</body>
</html>
`;
}
