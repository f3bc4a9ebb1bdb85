// Answers what Node's HTTP parser refuses before a request exists with the API's error envelope
// instead of Node's empty status line (the statuses are `malformedAnswer`'s), and CONNECT, which
// tunnels nothing (501). Each answer is written raw on the socket, which then closes; a socket whose
// answer has started, or that is gone, is only closed. An HTTP/1.1 request without Host, which Node
// would refuse with a bare 400, is refused here with the envelope (the server is created with
// `requireHostHeader: false` for that).
import {
  type IncomingMessage,
  maxHeaderSize,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from './error-envelope.js';

/** What the parser's error code means for the client, as a status and a message. */
export interface MalformedAnswer {
  readonly status: number;
  readonly message: string;
}

/** A request-line start: a method token and a space (RFC 9110's token characters). */
const methodToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

/** The answer to a parser error, from its code and the bytes it stopped at (`rawPacket`). */
export function malformedAnswer(
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  maxHeaderBytes: number,
): MalformedAnswer {
  const raw = error.rawPacket?.toString('latin1') ?? '';
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const lineEnd = raw.indexOf('\r\n');
      const requestLine = lineEnd === -1 ? raw : raw.slice(0, lineEnd);
      return methodToken.test(requestLine) && (lineEnd === -1 || requestLine.length > maxHeaderBytes)
        ? { status: 414, message: `The URL is longer than the limit of ${maxHeaderBytes} bytes.` }
        : {
            status: 431,
            message: `The request's headers are larger than the limit of ${maxHeaderBytes} bytes.`,
          };
    }
    case 'HPE_INVALID_METHOD':
      return methodToken.test(raw)
        ? { status: 501, message: `The method ${raw.split(' ')[0]} is not implemented.` }
        : { status: 400, message: 'The request does not start with an HTTP request line.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, message: 'The request did not arrive in time.' };
    default:
      return {
        status: 400,
        message: `The request is not valid HTTP: ${error.message.replace(/^Parse Error: /, '')}.`,
      };
  }
}

/** The raw HTTP/1.1 answer carrying the envelope, closing the connection. */
export function rawEnvelopeResponse(answer: MalformedAnswer): string {
  const body = envelopeBody(answer);
  const lines = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The envelope of an answer as a JSON body. */
const envelopeBody = (answer: MalformedAnswer, moreInfo?: Record<string, unknown>) =>
  JSON.stringify(errorEnvelope(answer.status, answer.message, moreInfo));

/** Answers an HTTP/1.1 request that has no Host with a 400 naming the header; true when it did. */
export function refuseWithoutHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.httpVersion !== '1.1' || request.headers.host !== undefined) return false;
  const body = envelopeBody(
    { status: 400, message: 'Host is required in an HTTP/1.1 request.' },
    { violations: [{ location: 'header', name: 'Host', message: 'is required' }] },
  );
  response.shouldKeepAlive = false;
  response.writeHead(400, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
  return true;
}

/** Writes the answer and closes the socket, unless an answer has already started on it. */
function answerOn(socket: Duplex, answer: MalformedAnswer): void {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawEnvelopeResponse(answer));
}

/**
 * Makes `server` answer parser errors and CONNECT with the envelope; `logged` hears the status of
 * each (a client that reset the connection is not answered and not logged).
 */
export function answerMalformedRequests(server: Server, logged?: (status: number) => void): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    const answer = malformedAnswer(error, maxHeaderSize);
    answerOn(socket, answer);
    logged?.(answer.status);
  });
  server.on('connect', (_request, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answerOn(socket, { status: 501, message: 'CONNECT is not implemented: this server tunnels nothing.' });
    logged?.(501);
  });
}
