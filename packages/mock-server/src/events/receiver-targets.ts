// Where the sandbox may deliver events: a receiver URL is `http:` or `https:`, and unless the
// operator allows any target, its host is this machine or a private network (a loopback or private
// IP address, or `localhost`), so a sandbox cannot be made to POST to arbitrary hosts. Names other
// than `localhost` are not resolved: with the default, give an address. The answer is a sentence
// saying what is wrong, or undefined for an allowed URL.
import { BlockList, isIP } from 'node:net';

/** The loopback and private ranges (IPv4 and IPv6) a receiver may be in by default. */
const nearby = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  nearby.addSubnet(network, prefix, 'ipv4');
nearby.addSubnet('::1', 128, 'ipv6');
nearby.addSubnet('fc00::', 7, 'ipv6');

/** What is wrong with `value` as a receiver URL (undefined: it may be used). */
export function receiverTargetProblem(value: string, anyTarget: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (anyTarget) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (host === 'localhost' || (family !== 0 && nearby.check(host, family === 4 ? 'ipv4' : 'ipv6')))
    return undefined;
  return 'must be on this machine or a private network (a loopback or private address, or localhost); the server must be started allowing any target for another host';
}
