// What a stage answers with, and how an answer is written: the status, headers and body (or a
// body serialized ahead, for prepared responses, whose bytes are encoded once and kept), plus the API's rate-limit headers, which replace
// any the spec's examples carry. Errors are built with the API's envelope.
import type { ServerResponse } from 'node:http';
import type { AnswerLoss } from '@mall-api/mall-state';
import {
  type ErrorEnvelope,
  errorEnvelope,
  invalidParameterEnvelope,
  type Violation,
} from '../http/error-envelope.js';
import { type PreparedResponse, serializeBody } from '../responses/prepared-responses.js';

/** An answer to a request. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The body already serialized (prepared responses); `body` is ignored when set. */
  readonly prepared?: PreparedResponse;
  /** The rate-limit headers of a reply given before they were part of the phase (the 429 of the limit itself). */
  readonly limitHeaders?: Readonly<Record<string, string>>;
  /** Injected faults: close the connection without an answer, or never answer. */
  readonly disposition?: 'drop' | 'hang';
  /** The request rules that refused the request (validation/request-rules.ts), for its journal. */
  readonly refusedBy?: readonly string[];
  /** A lost answer (a fault): the status the mall answered with, and how the client lost it. */
  readonly lostAnswer?: { readonly status: number; readonly by: AnswerLoss };
}

/** A reply carrying an envelope. */
export const envelopeReply = (status: number, envelope: ErrorEnvelope): Reply => ({
  status,
  headers: {},
  body: envelope,
});

/** A reply with the API's error envelope for `status`. */
export const errorReply = (status: number, message: string, moreInfo: Record<string, unknown> = {}): Reply =>
  envelopeReply(status, errorEnvelope(status, message, moreInfo));

/**
 * The reply to a body that could not be read: a 413 closes the connection, so the unread rest of
 * the body is dropped rather than drained.
 */
export const bodyFailureReply = (failure: { status: number; message: string }): Reply =>
  failure.status === 413
    ? { ...errorReply(413, failure.message), headers: { connection: 'close' } }
    : errorReply(failure.status, failure.message);

/** The 422 reply naming every violated rule. */
export const violationsReply = (violations: readonly Violation[]): Reply =>
  envelopeReply(422, invalidParameterEnvelope(violations));

/** The bytes of each prepared response, encoded on its first use: sent as is from then on. */
const preparedBytes = new WeakMap<PreparedResponse, Buffer>();
const bytesOf = (prepared: PreparedResponse): Buffer => {
  let bytes = preparedBytes.get(prepared);
  if (!bytes) {
    bytes = Buffer.from(prepared.payload);
    preparedBytes.set(prepared, bytes);
  }
  return bytes;
};

/** Writes a reply with the rate-limit headers of the request. */
export function sendReply(
  response: ServerResponse,
  reply: Reply,
  limitHeaders: Readonly<Record<string, string>>,
): void {
  if (reply.disposition === 'drop') {
    response.socket?.destroy();
    return;
  }
  if (reply.disposition === 'hang') return;
  const headers: Record<string, string> = {};
  let contentType = reply.prepared?.contentType ?? 'application/json';
  for (const [name, value] of Object.entries(reply.headers)) {
    if (/^content-type$/i.test(name)) contentType = reply.prepared ? contentType : value;
    else if (!/^(content-length|x-ratelimit-|x-api-call-limit)/i.test(name)) headers[name] = value;
  }
  const payload = reply.prepared ? bytesOf(reply.prepared) : serializeBody(reply.body, contentType);
  Object.assign(headers, limitHeaders);
  // A prepared body names its media type even when empty, as its bytes are always written.
  if (typeof payload !== 'string' || payload !== '') headers['content-type'] = contentType;
  headers['content-length'] = String(
    typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length,
  );
  response.writeHead(reply.status, headers);
  response.end(payload);
}
