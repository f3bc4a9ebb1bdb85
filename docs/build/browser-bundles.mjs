// @ts-check
// Bundles the site's browser scripts (src/browser/*.ts) with rolldown into docs/dist/assets as
// classic scripts: site.js (search, dark mode) on every page and console.js (the "Try it"
// console, with Ajv) on the references. Their libraries come from node_modules; nothing is loaded
// from elsewhere at view time. Type-checking is tsc's job (see the docs tsconfig), not rolldown's.
import { join } from 'node:path';
import { build } from 'rolldown';

/**
 * Writes `assets/site.js` and `assets/console.js` under `dist`.
 * @param {string} docsRoot
 * @param {string} dist
 */
export async function bundleBrowserScripts(docsRoot, dist) {
  await Promise.all(
    ['site', 'console'].map((name) =>
      build({
        input: join(docsRoot, 'src', 'browser', `${name}.ts`),
        platform: 'browser',
        logLevel: 'warn',
        output: { file: join(dist, 'assets', `${name}.js`), format: 'iife', minify: true },
      }),
    ),
  );
}
