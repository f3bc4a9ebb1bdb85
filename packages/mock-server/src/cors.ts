// CORS for the documentation site's console, which sends requests to the mocks from another
// origin (the docs server): a preflight (OPTIONS with Access-Control-Request-Method) is answered
// 204 with what the console may send — any origin, the API methods, the Authorization,
// Content-Type and Prefer request headers — and every other answer carries the headers that let
// the page read the API's rate-limit headers and Retry-After. The header names come from the
// API's rate-limit table in @mall-api/rate-limit. Not an access rule: the mocks are local.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiLimits } from '@mall-api/rate-limit';
import type { ApiName } from './api-profiles.js';

/** The request headers a console request may carry. */
const allowedRequestHeaders = ['Authorization', 'Content-Type', 'Prefer'];
const allowedMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The CORS headers of every answer of the API: any origin, and the rate-limit headers readable. */
export function corsResponseHeaders(api: ApiName): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': [...Object.keys(apiLimits[api].headers), 'Retry-After'].join(', '),
  };
}

/** Whether `request` is a CORS preflight rather than an OPTIONS call of the API. */
export const isPreflight = (request: IncomingMessage): boolean =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/**
 * Adds the CORS headers to `response` and answers a preflight with 204.
 * @returns true when the request was a preflight and has been answered.
 */
export function applyCors(api: ApiName, request: IncomingMessage, response: ServerResponse): boolean {
  for (const [name, value] of Object.entries(corsResponseHeaders(api))) response.setHeader(name, value);
  if (!isPreflight(request)) return false;
  response
    .writeHead(204, {
      'access-control-allow-methods': allowedMethods.join(', '),
      'access-control-allow-headers': allowedRequestHeaders.join(', '),
      'access-control-max-age': '600',
    })
    .end();
  return true;
}
