// Reads a request body the operation declares: JSON for the admin API's writes (the platform
// answers 400 when the Content-Type is not JSON or the body does not parse, so this tells those
// cases apart), or a form for the OAuth token endpoint.

/** Reads a request body as UTF-8 text; undefined when it is larger than `limitBytes`. */
export async function readBodyText(
  request: AsyncIterable<unknown>,
  limitBytes: number,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Outcome of reading a JSON body. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Reads and parses a body whose declared media types are `mediaTypes` (at most `limitBytes`):
 * a form when the operation takes `application/x-www-form-urlencoded`, otherwise JSON.
 */
export async function readJsonBody(
  request: AsyncIterable<unknown> & { headers: Record<string, string | string[] | undefined> },
  mediaTypes: readonly string[] = ['application/json'],
  limitBytes = 1024 * 1024,
): Promise<JsonBody> {
  const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
  const text = await readBodyText(request, limitBytes);
  if (text === undefined)
    return { ok: false, message: `The request body is larger than ${limitBytes} bytes.` };
  const form = 'application/x-www-form-urlencoded';
  if (mediaTypes.includes(form) && contentType.startsWith(form)) {
    return { ok: true, value: Object.fromEntries(new URLSearchParams(text)) };
  }
  if (!/^application\/(.+\+)?json\b/.test(contentType)) {
    return { ok: false, message: 'Send the request body as application/json.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: 'The request body is not valid JSON.' };
  }
}
