// @ts-check
// The references' server-side rendering at build time: bundles src/redoc-prerender.mjs for Node
// with the same Redoc file (its browser library), polished shim and libraries as the page's
// assets/redoc.js (browser-bundles.mjs), so the HTML and the styled-components class names it
// produces are the ones the browser hydrates, and loads it. The bundle lives in a temporary folder
// only while it is loaded.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { polishedThrough } from './browser-bundles.mjs';

/** Redoc's browser library, the file the browser bundle gets for `redoc` (package.json "browser"). */
const redocBrowserLibrary = join(
  dirname(createRequire(import.meta.url).resolve('redoc/package.json')),
  'bundles',
  'redoc.browser.lib.js',
);

/**
 * @typedef {(spec: object, options: object) => { html: string, styles: string, samples: Record<string, Record<string, string>> }} Prerender
 */

/**
 * Redoc's server-side renderer (see src/redoc-prerender.mjs), bundled for Node and loaded.
 * @param {string} docsRoot
 * @returns {Promise<Prerender>}
 */
export async function loadRedocPrerenderer(docsRoot) {
  const folder = await mkdtemp(join(tmpdir(), 'mall-api-docs-prerender-'));
  try {
    const file = join(folder, 'redoc-prerender.mjs');
    await build({
      input: join(docsRoot, 'src', 'redoc-prerender.mjs'),
      platform: 'node',
      logLevel: 'warn',
      plugins: [
        polishedThrough(join(docsRoot, 'src', 'browser', 'polished-css-variables.ts')),
        {
          name: 'redoc-browser-library',
          resolveId: (source) => (source === 'redoc' ? redocBrowserLibrary : null),
        },
      ],
      transform: { define: { 'process.env.NODE_ENV': '"production"' } },
      output: { file, format: 'esm' },
    });
    /** @type {{ prerenderRedoc: Prerender }} */
    const { prerenderRedoc } = await import(pathToFileURL(file).href);
    return prerenderRedoc;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
