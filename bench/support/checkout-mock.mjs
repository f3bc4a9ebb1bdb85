// Benchmark support: the mock-server and rate-limit packages of this checkout, or of another one
// (MOCK_CHECKOUT=<dir>, a baseline built from an earlier commit), the demo OAuth authority over
// them, whichever API that checkout has, and the per-mall state with sandbox malls (seed 1) that
// `startMockServer` would give an API, for handlers built without a server.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const checkout = process.env.MOCK_CHECKOUT;
const root = checkout ?? join(import.meta.dirname, '..', '..');
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

/**
 * The per-mall state of a process serving sandbox malls (seed 1, in memory), as `startMockServer`
 * builds it: its `malls` option of `createMockApi`. Reads the checkout's build past the packages'
 * entry points (their internals), so it follows the layout of this commit's mock-server.
 */
export async function sandboxMalls() {
  /** @type {(pkg: string, file: string) => Promise<any>} */
  const built = (pkg, file) => import(pathToFileURL(join(root, 'packages', pkg, 'dist', file)).href);
  const [{ createMockMalls }, { loadSandbox }, mallState, specModel] = await Promise.all([
    built('mock-server', 'malls/mock-malls.js'),
    built('mock-server', 'server/sandbox-loader.js'),
    built('mall-state', 'index.js'),
    built('spec-model', 'index.js'),
  ]);
  const specs = await specModel.loadSpecs({});
  const clocks = mallState.createMallClocks();
  const admin = await mockServer.compileApi('admin', specs.admin);
  const sandbox = await loadSandbox({ seed: 1 }, clocks, admin, specs);
  return createMockMalls({ clocks, sandbox });
}
