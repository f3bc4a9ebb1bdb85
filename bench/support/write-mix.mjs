// Benchmark support: the write mix of the admin API — on each connection a product is created,
// renamed and deleted in turn (POST, PUT, DELETE), on a few malls at once (one autocannon instance
// per mall, each with that mall's token), after a warm-up that is not counted. Sums throughput and
// takes the worst p99, like load-mix.mjs does for the GET mix. Also gets a mall's token through the
// mock's OAuth flow over HTTP, so it works against any server that runs the flow.
import autocannon from 'autocannon';

const redirect = 'http://127.0.0.1:8765/callback';
const demoApp = `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`;

/**
 * An access token for `mall` from the admin mock at `adminUrl` (authorize, then exchange the code).
 * @param {string} adminUrl
 * @param {string} mall
 * @param {string} scopes comma-separated
 */
export async function mallToken(adminUrl, mall, scopes) {
  const base = `${adminUrl}/__mall/${mall}/api/v2/oauth`;
  const authorize = await fetch(
    `${base}/authorize?response_type=code&client_id=demo-app&state=bench&redirect_uri=${redirect}&scope=${scopes}`,
    { redirect: 'manual' },
  );
  const code = new URL(authorize.headers.get('location') ?? 'http://invalid/').searchParams.get('code');
  if (!code) throw new Error(`no code from ${base}/authorize (${authorize.status})`);
  const token = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { authorization: demoApp },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect }),
  });
  const { access_token: accessToken } = /** @type {{ access_token?: string }} */ (await token.json());
  if (!accessToken) throw new Error(`no token from ${base}/token (${token.status})`);
  return accessToken;
}

/**
 * The create → rename → delete cycle of one connection (autocannon's `requests`, with the created
 * product's number carried in the connection's context).
 * @param {string} token
 * @returns {import('autocannon').Request[]}
 */
function productCycle(token) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  /** @param {object} context the connection's context, holding the product it created */
  const productPath = (context) =>
    `/api/v2/admin/products/${/** @type {{ productNo?: number }} */ (context).productNo ?? 0}`;
  return [
    {
      method: 'POST',
      path: '/api/v2/admin/products',
      headers,
      body: JSON.stringify({
        shop_no: 1,
        request: { product_name: 'Bench write', supply_price: '1000.00', price: '2000.00', display: 'T' },
      }),
      onResponse: (status, body, context) => {
        if (status === 201)
          /** @type {{ productNo?: number }} */ (context).productNo = JSON.parse(body).product.product_no;
      },
    },
    {
      method: 'PUT',
      setupRequest: (request, context) => ({ ...request, path: productPath(context) }),
      headers,
      body: JSON.stringify({ shop_no: 1, request: { product_name: 'Bench write, renamed' } }),
    },
    {
      method: 'DELETE',
      setupRequest: (request, context) => ({ ...request, path: productPath(context) }),
      headers,
    },
  ];
}

/**
 * Throughput and worst p99 of the write mix on `malls` (mall id → token) at once.
 * @param {string} adminUrl
 * @param {Record<string, string>} tokens token of each mall
 * @param {{ seconds: number, connections: number, warmupSeconds?: number }} options
 * @returns {Promise<import('./load-mix.mjs').LoadResult>}
 */
export async function loadWrites(adminUrl, tokens, { seconds, connections, warmupSeconds = 2 }) {
  const malls = Object.entries(tokens);
  const perMall = Math.max(1, Math.floor(connections / malls.length));
  /** @param {number} duration */
  const round = (duration) =>
    Promise.all(
      malls.map(([, token]) =>
        autocannon({ url: adminUrl, requests: productCycle(token), connections: perMall, duration }),
      ),
    );
  await round(warmupSeconds);
  const results = await round(seconds);
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}
