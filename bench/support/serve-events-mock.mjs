// Benchmark support: serves the admin mock with sandbox malls (seed 1), rate limits off, on the
// given port, delivering the malls' events to the receiver URL given (none: no receiver), and prints
// "ready <json>" with its URL once listening.
//   node serve-events-mock.mjs <admin-port> [receiver-url]
import { startMockServers } from '@mall-api/mock-server';

const [port, receiver] = process.argv.slice(2);
const served = await startMockServers({
  apis: ['admin'],
  ports: { admin: Number(port) },
  sandbox: { seed: 1 },
  rateLimit: 'off',
  ...(receiver ? { events: { receiver: { url: receiver, key: 'bench-key' } } } : {}),
});
process.stdout.write(`ready ${JSON.stringify({ url: served.mocks[0]?.url })}\n`);
process.once('SIGTERM', () => served.close().then(() => process.exit(0)));
