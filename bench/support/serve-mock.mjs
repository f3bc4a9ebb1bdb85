// Benchmark support: serves all three mock APIs in one process with their rate limits raised so
// far that they never interfere, on the given ports, and prints "ready <json>" with the URLs and a
// demo access token for the admin and analytics APIs once listening.
//   node serve-mock.mjs <collection-port> <admin-port> <analytics-port>

import { createOAuthAuthority, demoOAuthApp, issueDemoTokens, startMockServer } from '@mall-api/mock-server';
import { unlimitedLimiter } from './unlimited-limiter.mjs';

/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */

const [collectionPort, adminPort, analyticsPort] = process.argv.slice(2).map(Number);
const authority = createOAuthAuthority({ apps: [demoOAuthApp] });
/** @type {[ApiName, number | undefined][]} */
const ports = [
  ['collection', collectionPort],
  ['admin', adminPort],
  ['analytics', analyticsPort],
];
const mocks = await Promise.all(
  ports.map(([api, port]) =>
    startMockServer({ api, port: port ?? 0, authority, limiter: unlimitedLimiter(api) }),
  ),
);
const token = issueDemoTokens(authority, [
  'mall.read_category',
  'mall.read_product',
  'mall.read_analytics',
]).access_token;
process.stdout.write(
  `ready ${JSON.stringify({ urls: Object.fromEntries(mocks.map((m) => [m.api, m.url])), token })}\n`,
);
process.once('SIGTERM', () => Promise.all(mocks.map((m) => m.close())).then(() => process.exit(0)));
