// Builds an IncomingMessage-like request for stage tests: method, URL, headers (a loopback `Host`
// unless given, as every HTTP/1.1 client sends one), an optional body and the peer address, without
// a socket or a server; the arrival parsed from it; and `passedOn`, the phase a step passes on (a
// test that gets a reply instead fails).
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { SpecModel } from '@mall-api/spec-model';
import { type ApiName, apiProfiles } from '../../identity/api-profiles.js';
import { type Arrival, parseArrival } from '../phases.js';
import type { Step } from '../stage.js';

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

/** The arrival of a fake request to one API. */
export const fakeArrival = (api: ApiName, spec: SpecModel, request: FakeRequest): Arrival =>
  parseArrival(apiProfiles[api], spec, fakeRequest(request));

/** The phase a step passes on from `phase` (as a pipeline adds its facts); throws when it answers instead. */
export async function passedOn<In extends object, Adds extends object>(
  step: Step<In, Adds>,
  phase: In,
): Promise<In & Adds> {
  const result = await step.run(phase);
  if (result !== undefined && 'status' in result)
    throw new Error(`expected ${step.name} to pass on, it answered ${JSON.stringify(result.body)}`);
  return { ...phase, ...(result as Adds) };
}
