// Benchmark support: serves one of our mock APIs in its own process with its rate limit raised
// so far that it never interferes, and prints "ready <url>" once listening.

import { startMockServer } from '@mall-api/mock-server';
import { apiLimits, createServerLimiter } from '@mall-api/rate-limit';

const api = process.argv[2] ?? 'collection';
const port = Number(process.argv[3] ?? 0);
const unlimited = {
  ...apiLimits[api],
  policy: { kind: 'fixed-window', limit: 1_000_000_000, windowMs: 60_000 },
};
const mock = await startMockServer({ api, port, limiter: createServerLimiter({ api: unlimited }) });
process.stdout.write(`ready ${mock.url}\n`);
process.once('SIGTERM', () => mock.close().then(() => process.exit(0)));
