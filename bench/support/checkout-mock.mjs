// Benchmark support: the mock-server and rate-limit packages of this checkout, or of another one
// (MOCK_CHECKOUT=<dir>, a baseline built from an earlier commit), and the demo OAuth authority over
// them, whichever API that checkout has.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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
export const mockServer = await fromCheckout('mock-server', '@mall-api/mock-server');
/** @type {typeof import('@mall-api/rate-limit')} */
export const rateLimit = await fromCheckout('rate-limit', '@mall-api/rate-limit');

/**
 * The demo authority. Checkouts since one compiled API per spec pass the specs' OAuth settings;
 * older ones (a baseline) read them at import time and export the demo app as a value.
 */
export async function demoAuthority() {
  if ('platformOAuthSettings' in mockServer) {
    const settings = await mockServer.platformOAuthSettings();
    return mockServer.createOAuthAuthority({ apps: [mockServer.demoOAuthApp(settings)], settings });
  }
  /** @type {any} */
  const older = mockServer;
  return older.createOAuthAuthority({ apps: [older.demoOAuthApp] });
}

/** A demo access token with the scopes the GET mix needs (another checkout's may answer at once). */
export const mixToken = async (/** @type {import('@mall-api/mock-server').OAuthAuthority} */ authority) =>
  (
    await mockServer.issueDemoTokens(authority, [
      'mall.read_category',
      'mall.read_product',
      'mall.read_analytics',
    ])
  ).access_token;
