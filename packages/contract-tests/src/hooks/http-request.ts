// The one HTTP call the hooks make on their own (outside Dredd's transactions): spending a rate
// budget, fetching an OAuth code, creating sandbox fixtures. Redirects are not followed. Also reads
// an answer's headers and JSON text, for the hooks, the conformance client and the mutant proxy.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Json } from '@mall-api/spec-model';

/** A whole answer. */
export interface HttpAnswer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** Headers as name -> value, repeated values joined with `, ` (as a `Headers` would read them). */
export const flatHeaders = (headers: Readonly<Record<string, string | string[] | undefined>>) =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );

/** Sends one request and reads the whole answer. */
export function sendRequest(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  return new Promise((done, fail) => {
    const target = new URL(url);
    const call = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      { method, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    call.on('error', fail);
    call.end(body);
  });
}

/** The parsed JSON text, or undefined when it is empty or not JSON. */
export function parseJson(text: string): Json | undefined {
  try {
    return text ? (JSON.parse(text) as Json) : undefined;
  } catch {
    return undefined;
  }
}
