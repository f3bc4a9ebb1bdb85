#!/usr/bin/env node
// Builds the documentation site into docs/dist: one Redoc reference per API (Redoc's script is
// served from docs/dist/assets, so no page loads anything from outside), the bundled specs for
// download, and the landing page. Reads specs/dist (run the bundle first); writes only docs/dist.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderLanding } from './landing-page.mjs';
import { renderReferencePage } from './reference-page.mjs';

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

async function buildReference(api) {
  await mkdir(join(dist, api.name), { recursive: true });
  await writeFile(join(dist, api.name, 'index.html'), renderReferencePage(api));
  for (const ext of ['yaml', 'json']) {
    const file = `${api.name}.openapi.${ext}`;
    await copyFile(join(repoRoot, 'specs', 'dist', file), join(dist, 'specs', file));
  }
}

const started = performance.now();
const apis = await Promise.all(
  JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')).map(async (api) => {
    const spec = JSON.parse(
      await readFile(join(repoRoot, 'specs', 'dist', `${api.name}.openapi.json`), 'utf8'),
    );
    return { ...api, version: spec.info.version };
  }),
);
await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'specs'), { recursive: true });
await mkdir(join(dist, 'assets'), { recursive: true });
await copyFile(join(docsRoot, 'src', 'site.css'), join(dist, 'assets', 'site.css'));
await copyFile(join(docsRoot, 'src', 'favicon.svg'), join(dist, 'assets', 'favicon.svg'));
await copyFile(join(docsRoot, 'src', 'redocly-logo.svg'), join(dist, 'assets', 'redocly-logo.svg'));
await writeFile(join(dist, 'assets', 'redoc.standalone.js'), await localRedocBundle());
await Promise.all(apis.map(buildReference));
await writeFile(join(dist, 'index.html'), renderLanding(apis));
process.stdout.write(`docs built into docs/dist in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
