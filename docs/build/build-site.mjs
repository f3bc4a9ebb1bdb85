#!/usr/bin/env node
// Builds the documentation site into docs/dist: one Redoc reference per API (with Redoc's script
// inlined, so no page loads anything from outside), the bundled specs for download, and the
// landing page. Reads specs/dist (run the bundle first); writes only docs/dist.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { renderLanding } from './landing-page.mjs';

const run = promisify(execFile);
const docsRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(docsRoot, '..');
const dist = join(docsRoot, 'dist');
const redocly = join(repoRoot, 'node_modules', '.bin', 'redocly');

async function buildReference(api) {
  await mkdir(join(dist, api.name), { recursive: true });
  await run(
    redocly,
    [
      'build-docs',
      join(repoRoot, 'specs', 'dist', `${api.name}.openapi.yaml`),
      '--output',
      join(dist, api.name, 'index.html'),
      '--title',
      `${api.title} — mall-api reference`,
      '--inlineBundle',
      '--openapi.hideDownloadButtons=false',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
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
await Promise.all(apis.map(buildReference));
await writeFile(join(dist, 'index.html'), renderLanding(apis));
process.stdout.write(`docs built into docs/dist in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
