// Bench support: imports a TypeScript module of the repository (a test harness under
// @mall-api/test-support) from a plain .mjs bench script. A Node.js that strips types (22.18 or later)
// imports the .ts file itself; an older one (Node 20) gets it transpiled by the repository's
// `typescript` into a temporary .mjs next to the source, so its relative imports resolve, removed
// once imported. Nothing is type-checked here: the typecheck task does that.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Imports the TypeScript module at `path` (absolute).
 * @param {string} path
 * @returns {Promise<unknown>}
 */
export async function importTypeScript(path) {
  // `process.features.typescript` (Node 22.10+) is 'strip' or 'transform' where types are stripped.
  const features = /** @type {{ typescript?: string | false }} */ (process.features);
  if (features.typescript) return import(pathToFileURL(path).href);
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(await readFile(path, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: path,
  });
  const transpiled = join(dirname(path), `.bench-${process.pid}-${Date.now()}.mjs`);
  await writeFile(transpiled, outputText);
  try {
    return await import(pathToFileURL(transpiled).href);
  } finally {
    await rm(transpiled, { force: true });
  }
}
