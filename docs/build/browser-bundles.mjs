// @ts-check
// Bundles the site's browser scripts (src/browser/) with rolldown into docs/dist/assets as
// classic scripts: site.js (search, dark mode) on every page, console.js (the "Try it" console,
// with Ajv), redoc-standin.js (the menu and anchors until Redoc is live, and Redoc's start on demand) and redoc.js (Redoc 2's library with its React; see src/browser/redoc-reference.mjs) on
// the references. Redoc's `polished` imports are routed to src/browser/polished-css-variables.ts,
// so its styles accept the theme's CSS custom properties; its one remote asset (the attribution
// logo, fetched from a CDN at view time) is pointed at the local copy. Their libraries come from
// node_modules; nothing is loaded from elsewhere at view time. Type-checking is tsc's job (see the
// docs tsconfig), not rolldown's.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';

/**
 * A rolldown plugin that gives every module but `shim` the file `shim` for `polished`; the
 * prerendering of the references (redoc-prerender.mjs) bundles Redoc with it too.
 * @param {string} shim
 * @returns {import('rolldown').Plugin}
 */
export const polishedThrough = (shim) => ({
  name: 'polished-css-variables',
  resolveId: (source, importer) => (source === 'polished' && importer !== shim ? shim : null),
});

/**
 * Points Redoc's attribution logo at the site's copy. Fails the build if a Redoc upgrade changes
 * that URL, rather than letting a remote request back in.
 * @param {string} file
 */
async function localRedocLogo(file) {
  const source = await readFile(file, 'utf8');
  const remoteLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
  const occurrences = source.split(remoteLogo).length - 1;
  if (occurrences !== 1)
    throw new Error(`expected one remote logo URL in Redoc's code, found ${occurrences}`);
  await writeFile(file, source.replace(remoteLogo, '../assets/redocly-logo.svg'));
}

/**
 * Writes `assets/site.js`, `assets/console.js`, `assets/redoc-standin.js` and `assets/redoc.js` under `dist`.
 * @param {string} docsRoot
 * @param {string} dist
 */
export async function bundleBrowserScripts(docsRoot, dist) {
  const browser = join(docsRoot, 'src', 'browser');
  const bundles = [
    { name: 'site', input: join(browser, 'site.ts'), plugins: [] },
    { name: 'console', input: join(browser, 'console.ts'), plugins: [] },
    { name: 'redoc-standin', input: join(browser, 'redoc-standin.ts'), plugins: [] },
    {
      name: 'redoc',
      input: join(browser, 'redoc-reference.mjs'),
      plugins: [polishedThrough(join(browser, 'polished-css-variables.ts'))],
    },
  ];
  await Promise.all(
    bundles.map(({ name, input, plugins }) =>
      build({
        input,
        platform: 'browser',
        logLevel: 'warn',
        plugins,
        transform: { define: { 'process.env.NODE_ENV': '"production"' } },
        output: { file: join(dist, 'assets', `${name}.js`), format: 'iife', minify: true },
      }),
    ),
  );
  await localRedocLogo(join(dist, 'assets', 'redoc.js'));
}
