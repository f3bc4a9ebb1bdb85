#!/usr/bin/env node
// Builds the documentation site into docs/dist: the landing page, the guides (docs/guides/*.md with
// their computed pictures and tables), one Redoc reference per API (Redoc's script served from
// docs/dist/assets, so no page loads anything from outside), and the docs' copies of the bundled
// specs with generated `x-codeSamples`, which the references render and the site offers for
// download. Reads specs/dist (run the bundle first) and @mall-api/rate-limit (built); writes only
// docs/dist. Never changes the hand-written specs or specs/dist.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { mockUrlOf, operationsOf, withCodeSamples } from './code-samples.mjs';
import { bucketDiagram, oauthSequenceDiagram, schedulerDiagram } from './diagrams.mjs';
import { parseGuide, renderGuideIndex, renderGuidePage } from './guide-pages.mjs';
import { baseAddress, renderLanding } from './landing-page.mjs';
import { siteNav } from './page-shell.mjs';
import { renderReferencePage } from './reference-page.mjs';
import { pagingTable, rateLimitHeaderTable, scopesTable, statusTable } from './spec-tables.mjs';

const docsRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(docsRoot, '..');
const dist = join(docsRoot, 'dist');

/**
 * Redoc's standalone bundle with its one remote asset (the attribution logo, fetched from a CDN
 * at view time) pointed at a local copy, so viewing a page sends no request off localhost. Fails
 * the build if a Redoc upgrade changes that URL, rather than letting a remote request back in.
 */
async function localRedocBundle() {
  const source = await readFile(
    createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'),
    'utf8',
  );
  const remoteLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
  const occurrences = source.split(remoteLogo).length - 1;
  if (occurrences !== 1)
    throw new Error(`expected one remote logo URL in Redoc's bundle, found ${occurrences}`);
  return source.replace(remoteLogo, '../assets/redocly-logo.svg');
}

/** The guides, in their front matter's order. */
async function readGuides() {
  const folder = join(docsRoot, 'guides');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.md')).sort();
  const guides = await Promise.all(
    files.map(async (file) =>
      parseGuide(file.replace(/\.md$/, ''), await readFile(join(folder, file), 'utf8')),
    ),
  );
  return guides.sort((a, b) => a.order - b.order);
}

const started = performance.now();
const apiTable = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8'));
const specs = Object.fromEntries(
  await Promise.all(
    apiTable.map(async (api) => [
      api.name,
      JSON.parse(await readFile(join(repoRoot, 'specs', 'dist', `${api.name}.openapi.json`), 'utf8')),
    ]),
  ),
);
const apis = apiTable.map((api) => ({
  ...api,
  version: specs[api.name].info.version,
  base: baseAddress(specs[api.name]),
  mockUrl: mockUrlOf(specs[api.name]),
  operationCount: operationsOf(specs[api.name]).length,
}));
const nav = siteNav(apis);
const guides = await readGuides();

const diagrams = {
  'oauth-sequence': oauthSequenceDiagram(),
  'client-scheduling': await schedulerDiagram(),
};
for (const api of apis) diagrams[`bucket-${api.name}`] = await bucketDiagram(api.name);
const specOf = (name) => {
  const spec = specs[name];
  if (!spec) throw new Error(`no API named ${name}`);
  return spec;
};
const blocks = {
  diagram: (name) => {
    const diagram = diagrams[name];
    if (!diagram) throw new Error(`no diagram named ${name}`);
    return diagram;
  },
  'status-table': (name) => statusTable(specOf(name)),
  'paging-table': (name) => pagingTable(specOf(name)),
  'rate-limit-headers': (name) => rateLimitHeaderTable(specOf(name)),
  scopes: (name) => scopesTable(specOf(name)),
};

await rm(dist, { recursive: true, force: true });
for (const folder of ['specs', 'assets', 'guides', ...apis.map((api) => api.name)]) {
  await mkdir(join(dist, folder), { recursive: true });
}
for (const asset of ['shell.css', 'site.css', 'reference.css', 'favicon.svg', 'redocly-logo.svg']) {
  await copyFile(join(docsRoot, 'src', asset), join(dist, 'assets', asset));
}
await writeFile(join(dist, 'assets', 'redoc.standalone.js'), await localRedocBundle());
for (const api of apis) {
  const spec = withCodeSamples(api.name, specs[api.name]);
  await writeFile(join(dist, 'specs', `${api.name}.openapi.json`), `${JSON.stringify(spec, null, 2)}\n`);
  await writeFile(join(dist, 'specs', `${api.name}.openapi.yaml`), stringify(spec, { lineWidth: 0 }));
  await writeFile(join(dist, api.name, 'index.html'), renderReferencePage(api, nav));
}
for (const guide of guides) {
  await writeFile(join(dist, 'guides', `${guide.name}.html`), renderGuidePage(guide, guides, nav, blocks));
}
await writeFile(join(dist, 'guides', 'index.html'), renderGuideIndex(guides, nav));
await writeFile(join(dist, 'index.html'), renderLanding(apis, guides, nav));
process.stdout.write(
  `docs built into docs/dist in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
    `(${apis.length} references, ${guides.length} guides)\n`,
);
