// Which mall a request to the mocks names. On the platform each mall has its own host
// (`{mall_id}.cafe24api.com`); locally `http://<mall_id>.localhost:4011` does the same, and since
// Node's resolver does not resolve `*.localhost` everywhere, a per-mall base URL works too:
// `http://127.0.0.1:4011/__mall/<mall_id>` in front of the API's own paths. A request naming no
// mall is for its token's mall, else the demo mall.
import type { IncomingMessage } from 'node:http';

/** The demo mall a request without a mall is for. */
export const defaultMallId = 'demomall';

/** The prefix of a per-mall base URL. */
export const mallPathPrefix = '/__mall/';

const mallLabel = /^[a-z0-9][a-z0-9-]{0,62}$/i;

/** The mall id the Host header's first label names (`<mall>.localhost`, `<mall>.<anything>.<tld>`), if any. */
export function mallFromHost(request: IncomingMessage): string | undefined {
  const header = request.headers.host ?? '';
  // The common case, a loopback address, names no mall.
  if (header.startsWith('127.0.0.1') || header.startsWith('localhost:') || header === 'localhost')
    return undefined;
  const host = header.replace(/:\d+$/, '');
  if (/^[\d.]+$/.test(host) || host === 'localhost' || host.startsWith('[')) return undefined;
  const [first] = host.split('.');
  return first && mallLabel.test(first) && host.split('.').length >= 2 ? first.toLowerCase() : undefined;
}

/** Splits a per-mall path (`/__mall/qa1/api/v2/…`) into the mall and the API path; other paths pass as they are. */
export function mallFromPath(pathname: string): { mallId: string | undefined; path: string } {
  if (!pathname.startsWith(mallPathPrefix)) return { mallId: undefined, path: pathname };
  const rest = pathname.slice(mallPathPrefix.length);
  const slash = rest.indexOf('/');
  const label = slash === -1 ? rest : rest.slice(0, slash);
  if (!mallLabel.test(label)) return { mallId: undefined, path: pathname };
  return { mallId: label.toLowerCase(), path: slash === -1 ? '/' : rest.slice(slash) };
}
