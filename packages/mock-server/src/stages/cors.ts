// CORS for the documentation site's console, which calls the mocks from another origin: a preflight
// is answered 204 with what the console may send, and every other answer carries the headers that let
// the page read the API's rate-limit headers (as its compiled spec names them) and Retry-After. Not
// an access rule: the mocks are local.
import type { IncomingMessage } from 'node:http';
import type { ApiLimit } from '@mall-api/rate-limit';
import type { Arrival } from '../pipeline/phases.js';
import type { Check } from '../pipeline/stage.js';

/** The request headers a console request may carry. */
const allowedRequestHeaders = ['Authorization', 'Content-Type', 'Prefer'];
const allowedMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The CORS headers of every answer of an API with this limit: any origin, and its rate-limit headers readable. */
export function corsResponseHeaders(limit: Pick<ApiLimit, 'headers'>): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': [...Object.keys(limit.headers), 'Retry-After'].join(', '),
  };
}

/** Whether `request` is a CORS preflight rather than an OPTIONS call of the API. */
export const isPreflight = (request: IncomingMessage): boolean =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/** Stage (first): answers a CORS preflight with 204 and what the console may send; other requests pass. */
export const corsPreflight: Check<Arrival> = {
  name: 'cors-preflight',
  run: (phase) =>
    isPreflight(phase.request)
      ? {
          status: 204,
          headers: {
            'access-control-allow-methods': allowedMethods.join(', '),
            'access-control-allow-headers': allowedRequestHeaders.join(', '),
            'access-control-max-age': '600',
          },
          body: undefined,
        }
      : undefined,
};
