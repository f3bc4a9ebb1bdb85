// Measures the runtime size of a client package as an app bundles it: its built entry and
// everything it imports, bundled by rolldown, minified and gzipped (types excluded). Used by the
// size test (the CI size limit) and the benchmark report.

import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';

const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * Client packages whose size is limited, with the limit in bytes (min+gz): 11 kB each, of which
 * the generated one-method-per-operation layer takes about 0.6 kB. A client bundles its own API's
 * rate-limit algorithm only (docs/benchmarks.md, "Client size" and "Operation methods").
 */
export const clientSizeLimits = {
  'collection-client': 11 * 1024,
  'admin-client': 11 * 1024,
  'analytics-client': 11 * 1024,
};

/**
 * Bundles `packages/<name>/dist/index.js` and returns its minified and gzipped sizes in bytes.
 * @param {string} name client package folder under `packages/`, e.g. `collection-client`
 * @returns {Promise<{ minified: number, gzipped: number, imports: string[] }>}
 */
export async function measureClient(name) {
  const bundle = await rolldown({
    input: join(repoRoot, 'packages', name, 'dist', 'index.js'),
    platform: 'browser',
    logLevel: 'silent',
    external: [/^node:/],
  });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  const code = output.map((chunk) => ('code' in chunk ? chunk.code : '')).join('');
  return {
    minified: Buffer.byteLength(code),
    gzipped: gzipSync(code).length,
    imports: output[0]?.imports ?? [],
  };
}
