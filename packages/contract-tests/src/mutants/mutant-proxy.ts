// A small HTTP proxy in front of one of our mocks that breaks one behaviour: it may rewrite a
// request before forwarding it, answer it itself, or rewrite the answer. The mutant test and the
// catch-rate benchmark put it in front of a real sandbox mock; it is not shipped.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flatHeaders } from '../hooks/http-request.js';

/** A request on its way to the mock. */
export interface ProxiedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** An answer on its way back. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How one mutant breaks the mock. */
export interface ProxyMutation {
  /** Rewrites the request in place, or answers it (then the mock never sees it). */
  request?(
    request: ProxiedRequest,
    forward: (request: ProxiedRequest) => Promise<ProxiedAnswer>,
  ): Promise<ProxiedAnswer | undefined> | ProxiedAnswer | undefined;
  /** Rewrites the answer in place. */
  answer?(answer: ProxiedAnswer, request: ProxiedRequest): void;
}

/** Hop-by-hop and re-encoded headers of the mock's answer, which the proxy does not pass on. */
const droppedHeaders = new Set([
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
]);

/** Starts the proxy in front of `upstream`; resolves with its URL. */
export async function startMutantProxy(
  upstream: string,
  mutation: ProxyMutation,
): Promise<{ url: string; close(): Promise<void> }> {
  const forward = async (request: ProxiedRequest): Promise<ProxiedAnswer> => {
    const target = new URL(`${request.url.pathname}${request.url.search}`, upstream);
    const { host: _host, connection: _connection, 'content-length': _length, ...headers } = request.headers;
    const response = await fetch(target, {
      method: request.method,
      headers,
      redirect: 'manual',
      ...(request.body && request.method !== 'GET' && request.method !== 'HEAD'
        ? { body: request.body }
        : {}),
    });
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!droppedHeaders.has(name)) answerHeaders[name] = value;
    });
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  };
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request: ProxiedRequest = {
      method: incoming.method ?? 'GET',
      url: new URL(incoming.url ?? '/', 'http://mutant'),
      headers: flatHeaders(incoming.headers),
      body: Buffer.concat(chunks).toString(),
    };
    try {
      const answer = (await mutation.request?.(request, forward)) ?? (await forward(request));
      mutation.answer?.(answer, request);
      outgoing.writeHead(answer.status, answer.headers).end(answer.body);
    } catch (error) {
      outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
