// Benchmark support: a bare node:http server per API answering each URL it was given with the
// recorded status, headers and body bytes, and nothing else — no parsing of the query, no checks,
// no state — the least a Node.js process can do per request of the GET mix. Started by
// http-ceiling.mjs with `fork`; receives the recordings over IPC and answers with the URLs.
import { createServer } from 'node:http';

/** @typedef {{ status: number, headers: Record<string, string>, body: string }} Recorded */

process.once('message', async (/** @type {Record<string, Record<string, Recorded>>} */ recorded) => {
  /** @type {Record<string, string>} */
  const urls = {};
  for (const [api, answers] of Object.entries(recorded)) {
    const byUrl = new Map(
      Object.entries(answers).map(([url, { status, headers, body }]) => {
        const bytes = Buffer.from(body);
        return [url, { status, headers: { ...headers, 'content-length': String(bytes.length) }, bytes }];
      }),
    );
    const server = createServer((request, response) => {
      const answer = byUrl.get(request.url ?? '');
      if (!answer) return void response.writeHead(404).end();
      response.writeHead(answer.status, answer.headers);
      response.end(answer.bytes);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    const address = server.address();
    urls[api] = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }
  process.send?.(urls);
});
