// CORS for the docs console: which headers every answer carries, how a preflight is told apart
// from an OPTIONS call, and, over HTTP, a preflight answered 204 and a real answer whose
// rate-limit headers a page on another origin may read.
import type { IncomingMessage } from 'node:http';
import { apiLimits } from '@mall-api/rate-limit';
import { apiNames } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockServer } from '../server/mock-server.js';
import { corsResponseHeaders, isPreflight } from './cors.js';

const request = (method: string, headers: Record<string, string> = {}) =>
  ({ method, headers }) as unknown as IncomingMessage;

describe('the CORS headers', () => {
  it('let any origin read each API’s rate-limit headers and Retry-After', () => {
    for (const api of apiNames) {
      const headers = corsResponseHeaders(apiLimits[api]);
      expect(headers['access-control-allow-origin']).toBe('*');
      const exposed = headers['access-control-expose-headers']?.split(', ');
      expect(exposed).toEqual([...Object.keys(apiLimits[api].headers), 'Retry-After']);
    }
    expect(corsResponseHeaders(apiLimits.admin)['access-control-expose-headers']).toContain(
      'X-Api-Call-Limit',
    );
  });

  it('treat only an OPTIONS request naming the method to come as a preflight', () => {
    expect(isPreflight(request('OPTIONS', { 'access-control-request-method': 'POST' }))).toBe(true);
    expect(isPreflight(request('OPTIONS'))).toBe(false);
    expect(isPreflight(request('GET', { 'access-control-request-method': 'GET' }))).toBe(false);
  });
});

describe('a mock seen from the docs console', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockServer({ api: 'collection', port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('answers a preflight with 204 and the methods and headers the console sends', async () => {
    const response = await fetch(`${mock.url}/api/shops`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:8080',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, prefer',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Prefer');
  });

  it('marks its answers, errors included, readable with their rate-limit headers', async () => {
    const response = await fetch(`${mock.url}/api/shops`, { headers: { origin: 'http://127.0.0.1:8080' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });
});
