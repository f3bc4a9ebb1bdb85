// The one-line summary of an API's rate limit the landing page shows, written from the spec's
// `x-rate-limit` (the same extension the mock and the clients' schedulers read), so the page
// cannot state other numbers than the limiter enforces.

/** @typedef {Readonly<Record<string, unknown>>} RateLimitExtension */

const countedPer = {
  /** @param {string} text */
  'client-ip': (text) => `${text} per client IP`,
  /** @param {string} text */
  mall: (text) => text.replace(/^(\w[\w ]*?):/, '$1 per mall:'),
};

/**
 * The summary of a spec's `x-rate-limit` extension.
 * @param {unknown} extension the document's root `x-rate-limit`
 * @returns {string}
 */
export function rateLimitSummary(extension) {
  if (typeof extension !== 'object' || extension === null) throw new Error('the spec states no x-rate-limit');
  const rule = /** @type {RateLimitExtension} */ (extension);
  const seconds = (/** @type {unknown} */ value) =>
    Number(value) === 1 ? 'second' : `${Number(value)} seconds`;
  /** @type {Record<string, () => string>} */
  const byAlgorithm = {
    'sliding-log': () => `Sliding log: ${rule.limit} calls in any ${seconds(rule['window-seconds'])}`,
    'fixed-window': () => `Fixed window: ${rule.limit} calls per ${seconds(rule['window-seconds'])}`,
    'leaky-bucket': () =>
      `Leaky bucket: holds ${rule.capacity} calls, drains ${rule['drain-per-second']} per second`,
    'token-bucket': () =>
      `Token bucket: burst ${rule.capacity}, one token every ${seconds(rule['refill-interval-seconds'])}`,
  };
  const text = byAlgorithm[String(rule.algorithm)]?.();
  if (!text) throw new Error(`unknown rate-limit algorithm ${String(rule.algorithm)}`);
  const per = countedPer[/** @type {'client-ip' | 'mall'} */ (String(rule['counted-per']))];
  return per ? per(text) : text;
}
