// @ts-check
// Renders the landing page (docs/dist/index.html): one card per API from docs/src/apis.json and
// the API's bundled spec (status, version, base address, local mock, auth style, rate limit,
// operation count and links to its reference, guides and spec downloads), the list of guides, the
// changelogs (when there are any), and the downloads (specs, Postman collections, Markdown copies,
// llms.txt), after a "Try it now" block: the demo credentials of the local mocks and one request in
// curl, Python and PHP (the reference's own generated samples). Markup only; the build script
// decides where it goes.
import { escapeHtml, pageShell } from './page-shell.mjs';

/**
 * The production base address of a spec: its first server, variables shown with their defaults.
 * @param {any} spec
 * @returns {{ template: string, example: string }}
 */
export function baseAddress(spec) {
  const server = spec.servers?.[0];
  if (!server) return { template: '', example: '' };
  const example = server.url.replace(
    /\{([^}]+)\}/g,
    (/** @type {string} */ _, /** @type {string} */ name) => server.variables?.[name]?.default ?? name,
  );
  return { template: server.url, example };
}

/**
 * @typedef {{ name: string, title: string, shortTitle: string, summary: string, status: string,
 *   version: string, apiVersions: string, base: { template: string, example: string }, mockUrl: string, auth: string,
 *   authGuide: string, rateLimit: string, rateLimitGuide: string, operationCount: number,
 *   client: string }} LandingApi
 */

/** @param {LandingApi} api */
function apiCard(api) {
  const badge = `<span class="badge${api.status === 'Beta' ? ' beta' : ''}">${escapeHtml(api.status)}</span>`;
  const base =
    api.base.template === api.base.example
      ? `<code>${escapeHtml(api.base.template)}</code>`
      : `<code>${escapeHtml(api.base.template)}</code>, e.g. <code>${escapeHtml(api.base.example)}</code>`;
  return `<section class="card api-card" aria-labelledby="api-${api.name}">
  <div class="card-head"><h3 id="api-${api.name}">${escapeHtml(api.title)}</h3>${badge}</div>
  <p>${escapeHtml(api.summary)}</p>
  <dl class="facts">
    <dt>Status</dt><dd>${escapeHtml(api.status)}</dd>
    <dt>API versions</dt><dd>${escapeHtml(api.apiVersions)}</dd>
    <dt>OpenAPI document</dt><dd>version ${escapeHtml(api.version)}</dd>
    <dt>Base address</dt><dd>${base}</dd>
    <dt>Local mock</dt><dd><code>${escapeHtml(api.mockUrl)}</code></dd>
    <dt>Authentication</dt><dd><a href="guides/${api.authGuide}">${escapeHtml(api.auth)}</a></dd>
    <dt>Rate limit</dt><dd><a href="guides/${api.rateLimitGuide}">${escapeHtml(api.rateLimit)}</a></dd>
    <dt>Operations</dt><dd>${api.operationCount}</dd>
    <dt>Client</dt><dd><code>npm install ${escapeHtml(api.client)}</code></dd>
  </dl>
  <p class="links"><a class="button" href="${api.name}/index.html">${escapeHtml(api.shortTitle)} reference</a>
    <a href="guides/getting-started.html#${api.name}-api">Getting started</a>
    <span class="downloads">Spec: <a href="specs/${api.name}.openapi.yaml" download>YAML</a> · <a href="specs/${api.name}.openapi.json" download>JSON</a> · <a href="postman/${api.name}.postman_collection.json" download>Postman</a> · <a href="${api.name}/reference.md">Markdown</a></span></p>
</section>`;
}

/**
 * @typedef {{ summary: string, reference: string, curl: string, python: string, php: string }} TryNowSample
 *   one request of a reference with its generated samples; `reference` is its link
 */

/**
 * The "Try it now" block: start the mocks, the demo credentials, one request three ways.
 * @param {TryNowSample} sample
 * @param {{ basic: { clientId: string, clientSecret: string }, oauth: { clientId: string, clientSecret: string } }} credentials
 */
function tryNow(sample, credentials) {
  const block = (/** @type {string} */ label, /** @type {string} */ code) =>
    `<h3>${label}</h3>
<pre tabindex="0"><code>${escapeHtml(code.trim())}</code></pre>`;
  return `<section class="try-now" aria-labelledby="try-now">
<h2 id="try-now">Try it now</h2>
<p>Start the sandbox mocks with <code>npm start</code> (a sample mall behind every API, on
<code>http://127.0.0.1:4010</code> to <code>4012</code>), then send a real request. The mocks take these demo credentials:</p>
<dl class="facts">
  <dt>Collection API (Basic)</dt><dd>client ID <code>${escapeHtml(credentials.basic.clientId)}</code>, secret <code>${escapeHtml(credentials.basic.clientSecret)}</code></dd>
  <dt>Admin and analytics (OAuth 2.0 app)</dt><dd>client ID <code>${escapeHtml(credentials.oauth.clientId)}</code>, secret <code>${escapeHtml(credentials.oauth.clientSecret)}</code>; the mock consents at once, and each reference’s <strong>Get a demo token</strong> fetches a token for you</dd>
</dl>
<p>${escapeHtml(sample.summary)}, three ways (or press <strong>Try it</strong> on any operation of <a href="${sample.reference}">the reference</a>):</p>
${block('curl', sample.curl)}
${block('Python', sample.python)}
${block('PHP', sample.php)}
</section>`;
}

/**
 * Renders the landing page for the given APIs (each with its spec facts), guides and changelogs,
 * with the "Try it now" block of `sample`.
 * @param {LandingApi[]} apis
 * @param {{ name: string, title: string, summary: string }[]} guides
 * @param {import('./page-shell.mjs').NavItem[]} nav
 * @param {{ name: string, title: string }[]} changelogs
 * @param {{ sample: TryNowSample, credentials: Parameters<typeof tryNow>[1] }} start
 */
export function renderLanding(apis, guides, nav, changelogs, start) {
  return pageShell({
    title: 'mall-api — API documentation',
    description: 'Documentation of the mall platform APIs: collection, admin and analytics.',
    nav,
    current: 'index.html',
    body: `<section class="hero" aria-labelledby="page-title">
<h1 id="page-title">mall-api documentation</h1>
<p class="lead">Three APIs of the mall platform, each described by a hand-written OpenAPI document. The
references, their code samples, the typed clients, the mock servers and the contract tests are all
generated from those same documents, so none of them can say something the others do not.</p>
<p class="links"><a class="button" href="guides/getting-started.html">Get started</a>
<a href="guides/authentication.html">Authentication</a> · <a href="guides/mock-servers.html">Mock servers for QA</a> ·
<a href="guides/index.html">All guides</a> · <a href="#try-now">Try it now</a></p>
</section>
${tryNow(start.sample, start.credentials)}
<h2 id="apis">APIs</h2>
<div class="cards">
${apis.map(apiCard).join('\n')}
</div>
<h2 id="guides">Guides</h2>
<ol class="guide-cards">
${guides
  .map(
    (guide) => `<li class="card"><h3><a href="guides/${guide.name}.html">${escapeHtml(guide.title)}</a></h3>
<p>${escapeHtml(guide.summary)}</p></li>`,
  )
  .join('\n')}
</ol>
${
  changelogs.length > 0
    ? `<h2 id="changelogs">Changelogs</h2>
<ul class="changelog-list">
${changelogs.map((log) => `<li><a href="changelogs/${log.name}.html">${escapeHtml(log.title)}</a> (<a href="changelogs/${log.name}.md">Markdown</a>)</li>`).join('\n')}
</ul>
`
    : ''
}<h2 id="downloads">Downloads</h2>
<p>The bundled OpenAPI 3.1 documents (one file per API, no external references, with the code samples of
the references as <code>x-codeSamples</code>), a Postman collection per API with a local-sandbox environment (the
demo credentials) and a your-mall one (empty secrets), and every page as Markdown for tools and language models (listed in <a href="llms.txt">llms.txt</a>).</p>
<div class="table-scroll" tabindex="0"><table>
<caption>Downloads per API</caption>
<thead><tr><th scope="col">API</th><th scope="col">Document version</th><th scope="col">OpenAPI YAML</th><th scope="col">OpenAPI JSON</th><th scope="col">Postman</th><th scope="col">Postman environments</th><th scope="col">Markdown</th></tr></thead>
<tbody>
${apis
  .map(
    (api) =>
      `<tr><td>${escapeHtml(api.title)}</td><td>${escapeHtml(api.version)}</td><td><a href="specs/${api.name}.openapi.yaml" download>${api.name}.openapi.yaml</a></td><td><a href="specs/${api.name}.openapi.json" download>${api.name}.openapi.json</a></td><td><a href="postman/${api.name}.postman_collection.json" download>${api.name}.postman_collection.json</a></td><td><a href="postman/${api.name}.local-sandbox.postman_environment.json" download>local sandbox</a> · <a href="postman/${api.name}.your-mall.postman_environment.json" download>your mall</a></td><td><a href="${api.name}/reference.md">${api.name}/reference.md</a></td></tr>`,
  )
  .join('\n')}
</tbody></table></div>
<p>Guides as Markdown: ${guides.map((guide) => `<a href="guides/${guide.name}.md">${escapeHtml(guide.title)}</a>`).join(' · ')} · <a href="llms.txt">llms.txt</a></p>`,
  });
}
