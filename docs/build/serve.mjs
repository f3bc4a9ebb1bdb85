// A small static file server for docs/dist (used by `npm start` and the browser tests). It serves
// files under its root only, with the right content types, and nothing else.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Starts serving `root` on host:port (port 0 picks a free one); resolves to its URL and a close function. */
export async function startDocsServer({ root, port = 8080, host = '127.0.0.1' }) {
  const base = resolve(root);
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
    server.listen(port, host, ready);
  });
  const address = server.address();
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
