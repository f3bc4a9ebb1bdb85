// Benchmark support: serves all three mock APIs in one process with their rate limits raised so
// far that they never interfere, on the given ports, and prints "ready <json>" with the URLs and a
// demo access token for the admin and analytics APIs once listening. In example mode unless
// MOCK_SANDBOX=1 (stateful sandbox malls, seed 1); MOCK_CHECKOUT=<dir> serves the mock built in
// another checkout of this repository (a baseline to compare with).
//   node serve-mock.mjs <collection-port> <admin-port> <analytics-port>
import { demoAuthority, mixToken, mockServer, rateLimit } from './checkout-mock.mjs';
import { unlimitedLimiter } from './unlimited-limiter.mjs';

/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */

const [collectionPort, adminPort, analyticsPort] = process.argv.slice(2).map(Number);
const authority = await demoAuthority();
/** @type {[ApiName, number | undefined][]} */
const ports = [
  ['collection', collectionPort],
  ['admin', adminPort],
  ['analytics', analyticsPort],
];
const mocks = await Promise.all(
  ports.map(([api, port]) =>
    mockServer.startMockServer({
      api,
      port: port ?? 0,
      authority,
      limiter: unlimitedLimiter(api, rateLimit),
      ...(process.env.MOCK_SANDBOX === '1' ? { sandbox: { seed: 1 } } : {}),
    }),
  ),
);
const token = await mixToken(authority);
process.stdout.write(
  `ready ${JSON.stringify({ urls: Object.fromEntries(mocks.map((m) => [m.api, m.url])), token })}\n`,
);
process.once('SIGTERM', () => Promise.all(mocks.map((m) => m.close())).then(() => process.exit(0)));
