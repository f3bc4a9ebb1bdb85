// Benchmark support: serves all three mock APIs in one process with their rate limits raised so
// far that they never interfere, on the given ports, and prints "ready <json>" with the URLs and a
// demo access token for the admin and analytics APIs once listening. In example mode unless
// MOCK_SANDBOX=1 (stateful sandbox malls, seed 1); MOCK_CHECKOUT=<dir> serves the mock built in
// another checkout of this repository (a baseline to compare with).
//   node serve-mock.mjs <collection-port> <admin-port> <analytics-port>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unlimitedLimiter } from './unlimited-limiter.mjs';

/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */

const checkout = process.env.MOCK_CHECKOUT;
/**
 * Imports a workspace package from the other checkout when there is one, else this one's.
 * @param {string} name folder under packages/
 * @param {string} fallback this checkout's package name
 */
const fromCheckout = (name, fallback) =>
  checkout
    ? import(pathToFileURL(join(checkout, 'packages', name, 'dist', 'index.js')).href)
    : import(fallback);
/** @type {typeof import('@mall-api/mock-server')} */
const mockServer = await fromCheckout('mock-server', '@mall-api/mock-server');
const { createOAuthAuthority, issueDemoTokens, startMockServer } = mockServer;
/** @type {typeof import('@mall-api/rate-limit')} */
const rateLimit = await fromCheckout('rate-limit', '@mall-api/rate-limit');

const [collectionPort, adminPort, analyticsPort] = process.argv.slice(2).map(Number);
/**
 * The demo authority. Checkouts since one compiled API per spec pass the specs' OAuth settings;
 * older ones (a baseline) read them at import time and export the demo app as a value.
 */
async function demoAuthority() {
  if ('platformOAuthSettings' in mockServer) {
    const settings = await mockServer.platformOAuthSettings();
    return createOAuthAuthority({ apps: [mockServer.demoOAuthApp(settings)], settings });
  }
  /** @type {any} */
  const older = mockServer;
  return older.createOAuthAuthority({ apps: [older.demoOAuthApp] });
}
const authority = await demoAuthority();
/** @type {[ApiName, number | undefined][]} */
const ports = [
  ['collection', collectionPort],
  ['admin', adminPort],
  ['analytics', analyticsPort],
];
const mocks = await Promise.all(
  ports.map(([api, port]) =>
    startMockServer({
      api,
      port: port ?? 0,
      authority,
      limiter: unlimitedLimiter(api, rateLimit),
      ...(process.env.MOCK_SANDBOX === '1' ? { sandbox: { seed: 1 } } : {}),
    }),
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
