// Reads request bodies within a byte limit: a declared Content-Length over it is refused before a
// byte is read, a chunked body stops being read as soon as it passes it (the rest is never buffered).
// The media type is checked before the body is read (JSON, or a form where the operation takes one),
// so a wrong Content-Type and a body that does not parse are told apart, as the platform does. A
// client that closes the connection mid-body is a RequestAbortedError, never a failure of the server.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { parse } from 'content-type';

/** The client closed the connection before its request body ended: nobody is left to answer. */
export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
  constructor() {
    super('the client closed the connection before the body ended');
  }
}

/** A request as the readers see it: a byte stream with headers. */
export type BodySource = Readable & { readonly headers: IncomingHttpHeaders };

/** The media type of a Content-Type header, lower case and without parameters; undefined when absent or malformed. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return parse(header).type;
  } catch {
    return undefined;
  }
}

/** Whether the declared Content-Length is already over `limitBytes`. */
export const declaredTooLarge = (headers: IncomingHttpHeaders, limitBytes: number): boolean =>
  Number(headers['content-length'] ?? 0) > limitBytes;

/**
 * Reads a request body as UTF-8 text; undefined when it is larger than `limitBytes` (then it stops
 * reading at once, keeping nothing of it).
 */
export function readBodyText(request: BodySource, limitBytes: number): Promise<string | undefined> {
  if (declaredTooLarge(request.headers, limitBytes)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      request.pause();
      chunks = [];
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: NodeJS.ErrnoException) => {
      stop();
      // Node reports a connection closed mid-body as an `aborted` ECONNRESET.
      reject(error.code === 'ECONNRESET' ? new RequestAbortedError() : error);
    };
    const onClose = () => onError(new RequestAbortedError());
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** Outcome of reading a JSON body: the value, or the status and message to refuse it with. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/** The refusal of a body over the limit. */
export const tooLargeMessage = (limitBytes: number): string =>
  `The request body is larger than the limit of ${limitBytes} bytes.`;

/**
 * Reads and parses a body whose declared media types are `mediaTypes` (at most `limitBytes`):
 * a form when the operation takes `application/x-www-form-urlencoded`, otherwise JSON.
 */
export async function readJsonBody(
  request: BodySource,
  mediaTypes: readonly string[],
  limitBytes: number,
): Promise<JsonBody> {
  const type = mediaTypeOf(request.headers['content-type']);
  const form = 'application/x-www-form-urlencoded';
  const isForm = mediaTypes.includes(form) && type === form;
  if (!isForm && !/^application\/(.+\+)?json$/.test(type ?? '')) {
    return { ok: false, status: 400, message: 'Send the request body as application/json.' };
  }
  const text = await readBodyText(request, limitBytes);
  if (text === undefined) return { ok: false, status: 413, message: tooLargeMessage(limitBytes) };
  if (isForm) return { ok: true, value: Object.fromEntries(new URLSearchParams(text)) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, message: 'The request body is not valid JSON.' };
  }
}
