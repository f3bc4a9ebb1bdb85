// Works out which client a request comes from, for per-client rate limits. Behind proxies the
// operator names the ones it trusts (`--trust-proxy`: addresses, CIDRs, or proxy-addr's names
// `loopback`, `linklocal`, `uniquelocal`); the client is then the right-most `X-Forwarded-For` hop
// that is not a trusted proxy, walking back from the socket's peer. With no trusted proxies (the
// default) the header is ignored and the client is the peer, so a caller cannot pick its own rate
// limit window by making a header up. The rule is proxy-addr's, the one Express applies.
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** The client address a rate limit is keyed on, for one request. */
export type ClientAddressOf = (request: IncomingMessage) => string;

/**
 * The rule for the given trusted proxies (none by default); throws a TypeError naming an entry that
 * is neither an address, a CIDR nor one of proxy-addr's names.
 */
export function clientAddressOf(trustedProxies: readonly string[] = []): ClientAddressOf {
  const trust = proxyAddr.compile([...trustedProxies]);
  // A socket already closed has no peer address: its requests share one key.
  return (request) => proxyAddr(request, trust) ?? 'unknown';
}
