#!/usr/bin/env node
// The CommonJS build of a package that CommonJS apps load (the clients and the packages they
// depend on), for loaders that cannot require() an ES module (jest's default mode, older
// bundlers). Run in the package's directory after `tsc`: rolldown turns each `require` entry of
// the package's `exports` from the ES build in `dist/` into CommonJS in `dist/cjs/` (our other
// packages and peers stay requires; third-party dependencies are bundled in), the declarations are copied beside it, and
// `dist/cjs/package.json` says `"type": "commonjs"`, so TypeScript reads those declarations as
// CommonJS ones. Not here: the ES build (tsc) or which packages have this build (their exports).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { rolldown } from 'rolldown';

const directory = process.cwd();
const esm = join(directory, 'dist');
const cjs = join(esm, 'cjs');
const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
/** @type {string[]} */
const peers = Object.keys(manifest.peerDependencies ?? {});

/** Each `require` entry's CommonJS file in dist/cjs, by the ES file in dist it is built from. */
const entries = Object.values(manifest.exports ?? {})
  .map((target) => target?.require?.default)
  .filter((file) => typeof file === 'string')
  .map((file) => {
    const inCjs = relative(cjs, join(directory, file));
    if (inCjs.startsWith('..')) throw new Error(`${manifest.name}: ${file} is not in dist/cjs`);
    return [inCjs.replace(/\.js$/, ''), join(esm, inCjs)];
  });
if (entries.length === 0) throw new Error(`${manifest.name}: no require entry in exports`);

rmSync(cjs, { recursive: true, force: true });
const bundle = await rolldown({
  input: Object.fromEntries(entries),
  platform: 'node',
  // Our other packages (CommonJS builds of their own), peers (the app's copy) and Node's built-ins
  // are required at run time. Third-party dependencies are bundled from their ES code: required,
  // an ES-first package's CommonJS default export would come through an interop layer that
  // differs from the one its ES build gives (openapi-fetch's `createClient`).
  external: (id) =>
    id.startsWith('node:') ||
    builtinModules.includes(id) ||
    [/^@mall-api\//, ...peers].some((peer) =>
      typeof peer === 'string' ? id === peer || id.startsWith(`${peer}/`) : peer.test(id),
    ),
});
await bundle.write({
  dir: cjs,
  format: 'cjs',
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
});
await bundle.close();
for (const file of readdirSync(esm, { recursive: true, encoding: 'utf8' })) {
  if (file.startsWith('cjs/') || !/\.d\.ts$/.test(file) || /\.test(-d)?\.d\.ts$/.test(file)) continue;
  mkdirSync(dirname(join(cjs, file)), { recursive: true });
  copyFileSync(join(esm, file), join(cjs, file));
}
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
