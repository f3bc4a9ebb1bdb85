// @ts-check
// A small static file server for docs/dist (used by `npm start` and the browser tests). It serves
// files under its root only, with the right content types, compressed (brotli or gzip, as the
// browser accepts, for text types) and with cache headers: content-hashed assets
// (`assets/name.<hash>.ext`) are immutable for a year, everything else is revalidated by ETag. It
// has no routes of its own: the site works from any static host (the console's demo token uses
// the OAuth redirect page shipped in docs/dist).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** @type {Record<string, string>} */
const types = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};
const compressible = new Set(['.html', '.css', '.js', '.json', '.yaml', '.svg', '.md', '.txt']);
/** A content-hashed asset name, as the docs build writes them (see build/asset-hashes.mjs). */
export const hashedAsset = /\/assets\/[^/]+\.[0-9a-f]{10}\.[a-z0-9]+$/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else none.
 * @param {string | undefined} accepted
 * @returns {'br' | 'gzip' | undefined}
 */
export function chooseEncoding(accepted) {
  const names = new Set(
    (accepted ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, quality]) => quality?.trim() !== 'q=0')
      .map(([name]) => name?.trim().toLowerCase()),
  );
  if (names.has('br')) return 'br';
  if (names.has('gzip')) return 'gzip';
  return undefined;
}

/**
 * Starts serving `root` on host:port (port 0 picks a free one); resolves to its URL and a close
 * function. Files are read and compressed once, then kept while their modification time holds.
 */
export async function startDocsServer(
  /** @type {{ root: string, port?: number, host?: string }} */ { root, port = 8080, host = '127.0.0.1' },
) {
  const base = resolve(root);
  /** @typedef {{ mtime: number, etag: string, body: Buffer, br?: Buffer, gzip?: Buffer }} Entry */
  /** @type {Map<string, Entry>} */
  const cache = new Map();
  /** @param {string} file @returns {Promise<Entry>} */
  const load = async (file) => {
    const { mtimeMs } = await stat(file);
    const cached = cache.get(file);
    if (cached && cached.mtime === mtimeMs) return cached;
    const body = await readFile(file);
    /** @type {Entry} */
    const entry = { mtime: mtimeMs, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, body };
    if (compressible.has(extname(file))) {
      Object.assign(entry, {
        br: await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
        gzip: await gzipped(body, { level: 9 }),
      });
    }
    cache.set(file, entry);
    return entry;
  };

  const server = createServer(async (request, response) => {
    let pathname;
    try {
      // The path only: `//x` or a stray `%` must not be read as a host or crash the server.
      pathname = decodeURIComponent(
        new URL(`http://docs.local/${(request.url ?? '/').replace(/^\/+/, '')}`).pathname,
      );
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed');
      return;
    }
    let file = normalize(join(base, pathname));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    let entry;
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      entry = await load(file);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const encoding = entry.br ? chooseEncoding(request.headers['accept-encoding']) : undefined;
    /** @type {Record<string, string>} */
    const headers = {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashedAsset.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag: entry.etag,
      ...(entry.br ? { vary: 'Accept-Encoding' } : {}),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    };
    if (request.headers['if-none-match'] === entry.etag) {
      response.writeHead(304, headers).end();
      return;
    }
    const body = encoding ? (entry[encoding] ?? entry.body) : entry.body;
    response.writeHead(200, { ...headers, 'content-length': String(body.length) });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ready(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${host}:${address.port}`,
    /** @returns {Promise<void>} */
    close: () => new Promise((done) => server.close(() => done())),
  };
}
