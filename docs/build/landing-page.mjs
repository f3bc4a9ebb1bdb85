// Renders the landing page (docs/dist/index.html) from the table of APIs in docs/src/apis.json.
// Markup only; the build script decides where it goes.
import { escapeHtml, pageShell } from './page-shell.mjs';

function apiCard(api) {
  const badge =
    api.status === 'Beta'
      ? '<span class="badge beta">Beta</span>'
      : `<span class="badge">${escapeHtml(api.status)}</span>`;
  return `<section class="card" aria-labelledby="api-${api.name}">
  <h2 id="api-${api.name}">${escapeHtml(api.title)}</h2>
  ${badge}
  <p>${escapeHtml(api.summary)}</p>
  <dl class="facts">
    <dt>Version</dt><dd>${escapeHtml(api.version)}</dd>
    <dt>Base address</dt><dd><code>${escapeHtml(api.baseUrl)}</code></dd>
    <dt>Local mock</dt><dd><code>${escapeHtml(api.mockUrl)}</code></dd>
    <dt>Authentication</dt><dd>${escapeHtml(api.auth)}</dd>
    <dt>Rate limit</dt><dd>${escapeHtml(api.rateLimit)}</dd>
    <dt>Client</dt><dd><code>${escapeHtml(api.client)}</code></dd>
  </dl>
  <p><a href="${api.name}/index.html">API reference</a> · Spec:
    <a href="specs/${api.name}.openapi.yaml" download>YAML</a> /
    <a href="specs/${api.name}.openapi.json" download>JSON</a></p>
</section>`;
}

/** Renders the landing page for the given APIs. */
export function renderLanding(apis) {
  return pageShell({
    title: 'mall-api — API documentation',
    body: `<h1>mall-api documentation</h1>
<p>The mall platform's APIs, described by hand-written OpenAPI documents. Each reference below is
generated from the same document that drives our typed clients, mock servers and contract tests.</p>
<div class="cards">
${apis.map(apiCard).join('\n')}
</div>`,
  });
}
