// Which names and addresses count as this machine, for the requests that change a sandbox or hand
// out credentials (the control API, the OAuth endpoints): a `Host` naming a loopback address,
// `localhost`, a `*.localhost` name or a configured public host (or a mall's subdomain of one), so a
// page reached through DNS rebinding, which sends its attacker's name, is refused. Also whether an
// address is loopback. Not an access rule for the platform APIs' own operations.
import { isIP } from 'node:net';

/** Whether `address` (an IP, `localhost`, or a socket's remote address) is on the loopback interface. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare.startsWith('::ffff:127.');
}

/** The host name a `Host` header names (no port, lower case, no trailing dot), or undefined when it is malformed. */
export function hostNameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const url = new URL(`http://${header}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return url.hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Whether a request with this `Host` header may reach the control API or the OAuth endpoints.
 * @param publicHosts host names the server is reachable under besides loopback (`sandbox.example.com`
 *   also admits `qa1.sandbox.example.com`)
 */
export function isAllowedHost(header: string | undefined, publicHosts: readonly string[] = []): boolean {
  const name = hostNameOf(header);
  if (name === undefined) return false;
  if (isLoopbackAddress(name) || name === 'localhost' || name.endsWith('.localhost')) return true;
  return publicHosts.some((host) => {
    const allowed = host.toLowerCase().replace(/\.$/, '');
    return name === allowed || name.endsWith(`.${allowed}`);
  });
}
