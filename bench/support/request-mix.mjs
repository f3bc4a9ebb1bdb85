// Benchmark support: the realistic mix of GET operations of the three APIs that the throughput
// and soak benchmarks send, per API, with the credentials each needs; and the same mix with no URL
// sent twice (`distinctUrls`), to measure a server without what it keeps per URL.
const basic = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;
const range = 'mall_id=demomall&start_date=2026-10-01&end_date=2026-10-31';

/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */
/** @typedef {import('autocannon').Request} MixRequest */

/**
 * Requests per API (autocannon's `requests` format), given a bearer token for admin/analytics.
 * @param {string} token
 * @returns {Record<ApiName, MixRequest[]>}
 */
export function requestMix(token) {
  const bearer = `Bearer ${token}`;
  /** @type {(path: string, authorization: string) => MixRequest} */
  const get = (path, authorization) => ({ method: 'GET', path, headers: { authorization } });
  return {
    collection: [
      get('/api/shops?shop_language=ko_KR&limit=20', basic),
      get('/api/products?collection_product_category=C100210&shop_grade=black,purple&limit=50', basic),
      get('/api/products/count?collection_product_category=C100210&price_min=10000&price_max=50000', basic),
      get('/api/products/standardtags?limit=10', basic),
      get('/api/storeproducts?store_id=blueharbor&sort=price&order=desc', basic),
    ],
    admin: [
      get('/api/v2/admin/categories?limit=20&category_depth=2', bearer),
      get('/api/v2/admin/categories/44', bearer),
      get('/api/v2/admin/categories/44/products?display_group=1', bearer),
      get('/api/v2/admin/mains', bearer),
      get('/api/v2/admin/products?limit=10&display=T', bearer),
      get('/api/v2/admin/bundleproducts?limit=10', bearer),
    ],
    analytics: [
      get(`/visitors/view?${range}&device_type=total`, bearer),
      get(`/pages/view?${range}&limit=100&sort=count`, bearer),
      get(`/products/sales?${range}&limit=100`, bearer),
      get(`/visitpaths/keywords?${range}`, bearer),
      get(`/sales/times?${range}`, bearer),
    ],
  };
}

let sent = 0;
/**
 * The mix with a counter added to every URL as a query parameter no API declares (`bench_n`), so
 * no two requests of a run have the same URL. The APIs ignore it: what a server keeps per URL (a
 * route, a request's checks) is worked out again for every request, while answers a server keeps
 * by the request's declared parameters still repeat.
 * @param {Record<ApiName, MixRequest[]>} mix
 * @returns {Record<ApiName, MixRequest[]>}
 */
export function distinctUrls(mix) {
  /** @type {(request: MixRequest) => MixRequest} */
  const numbered = (request) => ({
    ...request,
    setupRequest: (/** @type {MixRequest} */ sending) => ({
      ...sending,
      path: `${request.path}${request.path?.includes('?') ? '&' : '?'}bench_n=${sent++}`,
    }),
  });
  return {
    collection: mix.collection.map(numbered),
    admin: mix.admin.map(numbered),
    analytics: mix.analytics.map(numbered),
  };
}
