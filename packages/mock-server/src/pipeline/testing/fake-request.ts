// Builds an IncomingMessage-like request for stage tests: method, URL, headers, an optional body
// and the peer address, without a socket or a server.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { SpecModel } from '@mall-api/spec-model';
import { type ApiName, apiProfiles } from '../../api-profiles.js';
import { type Exchange, parseExchange } from '../exchange.js';

/** What a fake request carries. */
export interface FakeRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  remoteAddress?: string;
}

/** A readable request with the given parts. */
export function fakeRequest({
  method = 'GET',
  url,
  headers = {},
  body,
  remoteAddress = '127.0.0.1',
}: FakeRequest) {
  const request = Readable.from(body === undefined ? [] : [Buffer.from(body)]) as unknown as IncomingMessage;
  Object.assign(request, {
    method,
    url,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    socket: { remoteAddress },
  });
  return request;
}

/** The exchange of a fake request to one API. */
export const fakeExchange = (api: ApiName, spec: SpecModel, request: FakeRequest): Exchange =>
  parseExchange(apiProfiles[api], spec, fakeRequest(request));
