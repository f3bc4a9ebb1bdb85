// Reads a JSON request body for the admin API's writes: the platform answers 400 when the
// Content-Type is not JSON or the body does not parse, so this tells those cases apart.

/** Outcome of reading a JSON body. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; message: string };

/** Reads and parses the body of a request that must be JSON (at most `limitBytes`). */
export async function readJsonBody(
  request: AsyncIterable<unknown> & { headers: Record<string, string | string[] | undefined> },
  limitBytes = 1024 * 1024,
): Promise<JsonBody> {
  const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limitBytes)
      return { ok: false, message: `The request body is larger than ${limitBytes} bytes.` };
    chunks.push(chunk as Buffer);
  }
  if (!/^application\/(.+\+)?json\b/.test(contentType)) {
    return { ok: false, message: 'Send the request body as application/json.' };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, message: 'The request body is not valid JSON.' };
  }
}
