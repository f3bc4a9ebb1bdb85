#!/usr/bin/env node
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { demoCollectionClients, demoOAuthClient } from '@mall-api/mock-server';
import { loadSpec } from '@mall-api/spec-model';
import { stringify } from 'yaml';
import { apiVersionsLabel } from './api-versions-label.mjs';
import { hashAssets } from './asset-hashes.mjs';
import { bundleBrowserScripts } from './browser-bundles.mjs';
import { parseChangelog, renderChangelogPage, withPendingReleases } from './changelog-pages.mjs';
import { codeSamplesOf, mockUrlOf, withCodeSamples } from './code-samples.mjs';
import { consoleApiOf } from './console-data.mjs';
import { bucketDiagram, oauthSequenceDiagram, schedulerDiagram } from './diagrams.mjs';
import { parseGuide, renderGuideBody, renderGuideIndex, renderGuidePage } from './guide-pages.mjs';
import { baseAddress, renderLanding } from './landing-page.mjs';
import { guideMarkdown, llmsTxt, referenceMarkdown } from './markdown-copies.mjs';
import { renderOAuthCallbackPage } from './oauth-callback-page.mjs';
import { siteNav } from './page-shell.mjs';
import { postmanCollection } from './postman-collections.mjs';
// @ts-check
// Builds the documentation site into docs/dist: the landing page, the guides (docs/guides/*.md with
// their computed pictures and tables), one Redoc reference per API with its "Try it" console
// (its buttons written into Redoc's copy of the spec, the placeholders of its fields read from the
// default sandbox; Redoc's script and ours served from docs/dist/assets, so no page loads anything from outside)
// and the OAuth redirect page its "Get a demo token" lands on,
// the docs' copies of the bundled specs with generated `x-codeSamples`, the search index, the
// Markdown copies and llms.txt, a Postman collection and its environments per API, and the API changelogs
// (docs/changelogs/*.md, if any). Reads the specs through @mall-api/spec-model (run the bundle
// first) and @mall-api/rate-limit (built); writes only docs/dist. Never changes the hand-written
// specs or specs/dist.
// Options: `--out <folder>` builds elsewhere than docs/dist; `--no-prerender` leaves the references
// to render in the browser, as the site did before they were prerendered (bench/ compares the two).
import { rateLimitSummary } from './rate-limit-summary.mjs';
import { loadRedocPrerenderer } from './redoc-prerender.mjs';
import { redocSpecJson } from './redoc-spec.mjs';
import { redocOptions, renderReferencePage } from './reference-page.mjs';
import { restHtml, splitReference } from './reference-split.mjs';
import { withSandboxPlaceholders } from './sandbox-placeholders.mjs';
import { guideDocuments, referenceDocuments, searchIndexJson } from './search-index.mjs';
import { pagingTable, rateLimitHeaderTable, scopesTable, statusTable } from './spec-tables.mjs';
import { withTryItButtons } from './try-it-buttons.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').ApiName} ApiName */

const docsRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: { out: { type: 'string' }, 'no-prerender': { type: 'boolean', default: false } },
});
const dist = resolve(flags.out ?? join(docsRoot, 'dist'));

/**
 * The Markdown files of a folder of docs/ (none when it does not exist), sorted by name.
 * @param {string} name
 */
async function markdownFiles(name) {
  const folder = join(docsRoot, name);
  const files = await readdir(folder).catch(() => /** @type {string[]} */ ([]));
  return Promise.all(
    files
      .filter((file) => file.endsWith('.md'))
      .sort()
      .map(async (file) => ({
        name: file.replace(/\.md$/, ''),
        text: await readFile(join(folder, file), 'utf8'),
      })),
  );
}

const started = performance.now();
/** @type {{ name: ApiName, title: string, shortTitle: string, summary: string, status: string, auth: string, authGuide: string, rateLimitGuide: string, client: string }[]} */
const apiTable = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8'));
/** @type {Map<string, SpecModel>} */
const models = new Map(
  await Promise.all(apiTable.map(async (api) => /** @type {const} */ ([api.name, await loadSpec(api.name)]))),
);
/** @param {string} name */
const modelOf = (name) => {
  const model = models.get(name);
  if (!model) throw new Error(`no API named ${name}`);
  return model;
};
const apis = apiTable.map((api) => ({
  ...api,
  version: String(/** @type {any} */ (modelOf(api.name).document.info)?.version),
  apiVersions: apiVersionsLabel(modelOf(api.name).document),
  base: baseAddress(modelOf(api.name).document),
  mockUrl: mockUrlOf(modelOf(api.name).document),
  operationCount: modelOf(api.name).operations.length,
  rateLimit: rateLimitSummary(modelOf(api.name).document['x-rate-limit']),
}));
const nav = siteNav(apis);
const guides = (await markdownFiles('guides'))
  .map(({ name, text }) => parseGuide(name, text))
  .sort((a, b) => a.order - b.order);
/**
 * The release notes of an API's versions in specs/releases/<api>/ (`<version>.md`).
 * @param {string} api
 */
async function releaseNotes(api) {
  const folder = join(docsRoot, '..', 'specs', 'releases', api);
  const files = await readdir(folder).catch(() => /** @type {string[]} */ ([]));
  return Promise.all(
    files
      .filter((file) => file.endsWith('.md'))
      .map(async (file) => ({
        version: file.replace(/\.md$/, ''),
        markdown: await readFile(join(folder, file), 'utf8'),
      })),
  );
}
const changelogs = await Promise.all(
  (await markdownFiles('changelogs')).map(async ({ name, text }) =>
    withPendingReleases(
      parseChangelog(name, text),
      await releaseNotes(name),
      apiVersionsLabel(modelOf(name).document),
    ),
  ),
);

/** @type {Record<string, string>} */
const diagrams = {
  'oauth-sequence': oauthSequenceDiagram(),
  'client-scheduling': await schedulerDiagram(),
};
for (const api of apis) diagrams[`bucket-${api.name}`] = await bucketDiagram(api.name);
/** @type {Record<string, (argument: string) => string>} */
const blocks = {
  diagram: (name) => {
    const diagram = diagrams[name];
    if (!diagram) throw new Error(`no diagram named ${name}`);
    return diagram;
  },
  'status-table': (name) => statusTable(modelOf(name)),
  'paging-table': (name) => pagingTable(modelOf(name)),
  'rate-limit-headers': (name) => rateLimitHeaderTable(modelOf(name)),
  scopes: (name) => scopesTable(modelOf(name)),
};

await rm(dist, { recursive: true, force: true });
for (const folder of ['specs', 'assets', 'guides', 'postman', 'oauth', ...apis.map((api) => api.name)]) {
  await mkdir(join(dist, folder), { recursive: true });
}
const scripts = bundleBrowserScripts(docsRoot, dist);
for (const asset of ['shell.css', 'site.css', 'favicon.svg', 'redocly-logo.svg']) {
  await copyFile(join(docsRoot, 'src', asset), join(dist, 'assets', asset));
}
/** The references' styles, carried in each reference page (reference-page.mjs). */
const referenceCss = (
  await Promise.all(
    ['shell.css', 'reference.css'].map((sheet) => readFile(join(docsRoot, 'src', sheet), 'utf8')),
  )
).join('');

const searchDocuments = [];
const postman = [];
const prerender = flags['no-prerender'] ? undefined : await loadRedocPrerenderer(docsRoot);
const { scrollYOffset: _browserOnly, ...prerenderOptions } = redocOptions;
const consoleApis = await withSandboxPlaceholders(
  apis.map((api) => consoleApiOf(api.name, api.title, modelOf(api.name), [...models.values()])),
);
for (const [index, api] of apis.entries()) {
  const model = modelOf(api.name);
  const samples = codeSamplesOf(api.name, model);
  const spec = withCodeSamples(model, samples);
  await writeFile(join(dist, 'specs', `${api.name}.openapi.json`), `${JSON.stringify(spec, null, 2)}\n`);
  await writeFile(join(dist, 'specs', `${api.name}.openapi.yaml`), stringify(spec, { lineWidth: 0 }));
  const consoleApi = consoleApis[index];
  if (!consoleApi) throw new Error(`no console data for ${api.name}`);
  const tryIt = consoleApi.operations.map(({ operationId, summary }) => ({ operationId, summary }));
  const redocSpec = withTryItButtons(JSON.parse(redocSpecJson(spec)), tryIt);
  await writeFile(join(dist, 'specs', `${api.name}.redoc.json`), JSON.stringify(redocSpec));
  const rendered = prerender?.(redocSpec, prerenderOptions);
  // The page carries the first sections; the rest follows it (reference-split.mjs).
  const prerendered = rendered && { ...rendered, ...splitReference(rendered.html) };
  await writeFile(
    join(dist, api.name, 'index.html'),
    renderReferencePage(api, nav, referenceCss, prerendered),
  );
  if (prerendered) {
    // One file per operation: a tapped sample tab fetches its operation's samples alone.
    await mkdir(join(dist, api.name, 'samples'), { recursive: true });
    for (const [operationId, tabs] of Object.entries(prerendered.samples))
      await writeFile(join(dist, api.name, 'samples', `${operationId}.json`), JSON.stringify(tabs));
    await writeFile(join(dist, api.name, 'rest.html'), restHtml(prerendered.rest));
  }
  await writeFile(join(dist, api.name, 'console.json'), JSON.stringify(consoleApi));
  // What Try it fetches: the API's console data with the one operation (a few kB, not the API's).
  await mkdir(join(dist, api.name, 'console'), { recursive: true });
  for (const operation of consoleApi.operations)
    await writeFile(
      join(dist, api.name, 'console', `${operation.operationId}.json`),
      JSON.stringify({ ...consoleApi, operations: [operation] }),
    );
  await writeFile(
    join(dist, api.name, 'reference.md'),
    referenceMarkdown(api, model, new Map(samples.map((sample) => [sample.operationId, sample]))),
  );
  postman.push(
    postmanCollection({
      name: api.name,
      model,
      mockUrl: api.mockUrl,
      oauthMockUrl: mockUrlOf(modelOf('admin').document),
      demo: api.name === 'collection' ? demoCollectionClients[0] : demoOAuthClient,
    }).then(({ collection, environments }) =>
      Promise.all([
        writeFile(
          join(dist, 'postman', `${api.name}.postman_collection.json`),
          JSON.stringify(collection, null, 2),
        ),
        ...environments.map((environment) =>
          writeFile(join(dist, 'postman', environment.file), JSON.stringify(environment.json, null, 2)),
        ),
      ]),
    ),
  );
  searchDocuments.push(...referenceDocuments(api, model));
}
for (const guide of guides) {
  await writeFile(join(dist, 'guides', `${guide.name}.html`), renderGuidePage(guide, guides, nav, blocks));
  await writeFile(join(dist, 'guides', `${guide.name}.md`), guideMarkdown(guide, blocks));
  searchDocuments.push(...guideDocuments(guide, renderGuideBody(guide, blocks).html));
}
if (changelogs.length > 0) await mkdir(join(dist, 'changelogs'));
for (const changelog of changelogs) {
  await writeFile(join(dist, 'changelogs', `${changelog.name}.html`), renderChangelogPage(changelog, nav));
  await writeFile(join(dist, 'changelogs', `${changelog.name}.md`), changelog.markdown);
  searchDocuments.push({
    id: `changelog:${changelog.name}`,
    title: changelog.title,
    section: 'Changelog',
    url: `changelogs/${changelog.name}.html`,
    text: changelog.markdown,
    names: '',
  });
}
await writeFile(join(dist, 'search-index.json'), searchIndexJson(searchDocuments));
await writeFile(join(dist, 'oauth', 'callback.html'), renderOAuthCallbackPage());
await writeFile(join(dist, 'llms.txt'), llmsTxt(apis, guides, changelogs));
await writeFile(join(dist, 'guides', 'index.html'), renderGuideIndex(guides, nav));
const [demoPartner] = demoCollectionClients;
const firstSample = codeSamplesOf('collection', modelOf('collection')).find(
  (sample) => sample.operationId === 'listProducts',
);
if (!firstSample) throw new Error('no listProducts sample');
await writeFile(
  join(dist, 'index.html'),
  renderLanding(apis, guides, nav, changelogs, {
    sample: {
      summary: String(modelOf('collection').operation('listProducts')?.definition.summary),
      reference: 'collection/index.html#operation/listProducts',
      ...firstSample,
    },
    credentials: { basic: demoPartner, oauth: demoOAuthClient },
  }),
);
await Promise.all([scripts, ...postman]);
await hashAssets(dist);
process.stdout.write(
  `docs built into ${dist} in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
    `(${apis.length} references, ${guides.length} guides, ${changelogs.length} changelogs, ` +
    `${searchDocuments.length} search entries)\n`,
);
