// @ts-check
// Gives every file of docs/dist/assets a content-hashed name (`site.js` → `site.0123456789.js`)
// and rewrites the references to it in the other assets and in every HTML page, so a server may
// let browsers keep assets for a year (`immutable`, see serve.mjs) and a new build is still seen
// at once. Files that others reference (images) are renamed first, so the hash of a script or
// style sheet covers the names it points at.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const textTypes = new Set(['.js', '.css', '.svg', '.html']);
/** Leaves first: images, then style sheets, then scripts. */
const orderOf = (/** @type {string} */ name) => ({ '.css': 1, '.js': 2 })[extname(name)] ?? 0;

/** @param {string} text @param {Map<string, string>} names `assets/old` → `assets/new` in `text` */
function rewrite(text, names) {
  let result = text;
  for (const [from, to] of names) {
    result = result.replace(
      new RegExp(`(assets/)${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g'),
      `$1${to}`,
    );
  }
  return result;
}

/** @param {string} folder @returns {Promise<string[]>} every HTML file below `folder` */
async function htmlFiles(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Renames the assets of `dist` to content-hashed names and rewrites every reference.
 * @param {string} dist
 * @returns {Promise<Map<string, string>>} the new name of each asset
 */
export async function hashAssets(dist) {
  const assets = join(dist, 'assets');
  const files = (await readdir(assets)).sort((a, b) => orderOf(a) - orderOf(b) || a.localeCompare(b));
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const name of files) {
    const file = join(assets, name);
    let content = await readFile(file);
    if (textTypes.has(extname(name))) {
      content = Buffer.from(rewrite(content.toString('utf8'), names));
      await writeFile(file, content);
    }
    const hash = createHash('sha256').update(content).digest('hex').slice(0, 10);
    const hashed = `${name.slice(0, -extname(name).length)}.${hash}${extname(name)}`;
    await rename(file, join(assets, hashed));
    names.set(name, hashed);
  }
  for (const page of await htmlFiles(dist)) {
    await writeFile(page, rewrite(await readFile(page, 'utf8'), names));
  }
  return names;
}
