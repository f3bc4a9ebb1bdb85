// Child process of `gc-abort.int.test.ts`, run with `node --expose-gc`: a server that accepts
// connections and never answers, and the collection client calling it while garbage collections
// are forced. One scenario per run (argv[2]): `timeout` (every attempt times out and is retried),
// `signal` (the caller aborts while the first attempt waits), `signal-in-retry` (the caller aborts
// after some attempts timed out). Prints one JSON line: for each call, how it ended and after how
// many ms (`pending` if it had not settled 10 s after the start).
import { createServer } from 'node:http';
import { createCollectionClient } from '@mall-api/collection-client';

const scenario = process.argv[2] ?? '';
const calls = 20;
const sockets = new Set();
const server = createServer(() => {});
server.on('connection', (socket) => sockets.add(socket));
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const address = server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

/** @type {Record<string, { timeout: number, maxRetries: number, abortAtMs: number | undefined }>} */
const scenarios = {
  timeout: { timeout: 250, maxRetries: 2, abortAtMs: undefined },
  signal: { timeout: 60_000, maxRetries: 2, abortAtMs: 400 },
  'signal-in-retry': { timeout: 150, maxRetries: 10, abortAtMs: 700 },
};
const settings = scenarios[scenario];
if (settings === undefined) throw new Error(`unknown scenario ${scenario}`);

const client = createCollectionClient({
  clientId: 'demo-partner',
  clientSecret: 'demo-partner-secret',
  baseUrl,
  rateLimit: false,
  timeout: settings.timeout,
  maxRetries: settings.maxRetries,
  retryBackoff: { initialMs: 10, maxMs: 20 },
});

const { gc } = globalThis;
if (gc === undefined) throw new Error('run with node --expose-gc');
// Garbage to collect, and a forced full collection every 10 ms while the calls are pending.
let garbage = [];
const collector = setInterval(() => {
  garbage = Array.from({ length: 2000 }, (_, index) => ({ index, text: `x${index}` }));
  gc();
}, 10);

const started = performance.now();
/** @type {{ ended: string, afterMs: number | undefined }[]} */
const outcomes = Array.from({ length: calls }, () => ({ ended: 'pending', afterMs: undefined }));
const pending = outcomes.map((outcome) => {
  const controller = new AbortController();
  if (settings.abortAtMs !== undefined)
    setTimeout(() => controller.abort(new Error('caller gave up')), settings.abortAtMs);
  // Only the call's promise is kept: the controller, its signal and the request are held by nothing here.
  return client.GET('/api/shops', { signal: controller.signal }).then(
    () => {
      outcome.ended = 'answered';
      outcome.afterMs = performance.now() - started;
    },
    (error) => {
      // A MallApiError by its code (`timeout`), a caller's reason by its message.
      outcome.ended = error?.code ?? error?.message ?? String(error);
      outcome.afterMs = performance.now() - started;
    },
  );
});
await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, 10_000))]);
clearInterval(collector);
process.stdout.write(`${JSON.stringify({ garbage: garbage.length, outcomes })}\n`);
for (const socket of sockets) socket.destroy();
server.close();
process.exit(0);
