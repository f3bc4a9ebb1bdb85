// @ts-check
// A small static file server for docs/dist (used by `npm start` and the browser tests). It serves
// files under its root only, with the right content types, and one route of its own for the
// reference console's "Get a demo token": `GET /console/authorize?url=<authorize URL>` makes the
// mock OAuth server's authorize request (loopback mocks only, so it is no open proxy) without
// following its redirect, and answers `{ "location": … }` — a page cannot read a cross-origin
// redirect's Location itself.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

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

/**
 * @param {import('node:http').ServerResponse} response
 * @param {number} status
 * @param {Record<string, unknown>} body
 */
const sendJson = (response, status, body) =>
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Answers `/console/authorize`: the authorize request of a loopback mock, its redirect reported.
 * @param {URLSearchParams} query
 * @param {import('node:http').ServerResponse} response
 */
async function relayAuthorize(query, response) {
  let target;
  try {
    target = new URL(query.get('url') ?? '');
  } catch {
    return sendJson(response, 400, { error: 'invalid_request', error_description: 'url is not a URL' });
  }
  if (
    target.protocol !== 'http:' ||
    !loopbackHosts.has(target.hostname) ||
    !target.pathname.endsWith('/oauth/authorize')
  ) {
    return sendJson(response, 400, {
      error: 'invalid_request',
      error_description:
        'only the authorize endpoint of a mock on this machine (http://127.0.0.1) is relayed',
    });
  }
  try {
    const answer = await fetch(target, { redirect: 'manual' });
    const location = answer.headers.get('location');
    await answer.body?.cancel();
    if (location) return sendJson(response, 200, { location });
    return sendJson(response, 502, {
      error: 'no_redirect',
      error_description: `the mock answered ${answer.status}`,
    });
  } catch {
    return sendJson(response, 502, {
      error: 'unreachable',
      error_description: `no mock answers at ${target.origin}`,
    });
  }
}

/**
 * Starts serving `root` on host:port (port 0 picks a free one); resolves to its URL and a close function. */
export async function startDocsServer(
  /** @type {{ root: string, port?: number, host?: string }} */ { root, port = 8080, host = '127.0.0.1' },
) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    let pathname;
    let url;
    try {
      // The path only: `//x` or a stray `%` must not be read as a host or crash the server.
      url = new URL(`http://docs.local/${(request.url ?? '/').replace(/^\/+/, '')}`);
      pathname = decodeURIComponent(url.pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    if (pathname === '/console/authorize' && request.method === 'GET') {
      await relayAuthorize(url.searchParams, response);
      return;
    }
    let file = normalize(join(base, pathname));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
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
