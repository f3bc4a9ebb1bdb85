// The one HTTP call the hooks make on their own (outside Dredd's transactions): spending a rate
// budget, fetching an OAuth code, creating sandbox fixtures. Redirects are not followed.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A whole answer. */
export interface HttpAnswer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

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
