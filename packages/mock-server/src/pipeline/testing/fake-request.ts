// Builds an IncomingMessage-like request for stage tests: method, URL, headers (a loopback `Host`
// unless given, as every HTTP/1.1 client sends one), an optional body and the peer address, without
// a socket or a server.
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
  /** The body, in one chunk or as the chunks a chunked upload sends. */
  body?: string | readonly string[];
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
  const chunks = body === undefined ? [] : typeof body === 'string' ? [body] : body;
  const request = Readable.from(chunks.map((chunk) => Buffer.from(chunk))) as unknown as IncomingMessage;
  Object.assign(request, {
    method,
    url,
    headers: {
      host: '127.0.0.1',
      ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    },
    socket: { remoteAddress },
  });
  return request;
}

/** The exchange of a fake request to one API. */
export const fakeExchange = (api: ApiName, spec: SpecModel, request: FakeRequest): Exchange =>
  parseExchange(apiProfiles[api], spec, fakeRequest(request));
