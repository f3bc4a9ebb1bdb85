// Which mall a request to the admin or analytics mock is for. On the platform each mall has its
// own host (`{mall_id}.cafe24api.com`); locally `http://<mall_id>.localhost:4011` does the same,
// and a plain `127.0.0.1` or `localhost` means the default demo mall.
import type { IncomingMessage } from 'node:http';

/** The demo mall a request without a mall host is for. */
export const defaultMallId = 'demomall';

const mallLabel = /^[a-z0-9][a-z0-9-]{0,62}$/i;

/** The mall id from the Host header's first label, when the host is `<mall>.localhost` or `<mall>.<anything>.<tld>`. */
export function mallFromHost(request: IncomingMessage): string {
  const host = (request.headers.host ?? '').replace(/:\d+$/, '');
  if (/^[\d.]+$/.test(host) || host === 'localhost' || host.startsWith('[')) return defaultMallId;
  const [first] = host.split('.');
  return first && mallLabel.test(first) && host.split('.').length >= 2 ? first.toLowerCase() : defaultMallId;
}
