// Works out which client a request comes from, for per-client rate limits: the socket's address,
// or the first `X-Forwarded-For` hop when the direct peer is a loopback proxy (a local gateway,
// or a test that simulates several client IPs).
import type { IncomingMessage } from 'node:http';

const loopback = /^(127\.|::1$|::ffff:127\.)/;

/** The client address a rate limit should be keyed on. */
export function clientAddress(request: IncomingMessage): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  const forwarded = request.headers['x-forwarded-for'];
  const firstHop = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return loopback.test(peer) && firstHop ? firstHop : peer;
}
