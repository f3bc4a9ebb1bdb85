// Responses prepared ahead of requests: in static mode the documented answer of an operation depends
// only on the status and example asked for, so Prism's engine is asked once for each (operation,
// status, example), and each example of the default response, and the result kept serialized. The
// build does this for every bundled spec (dist/prepared/<api>.json, tagged with the spec's digest) so
// a mock answers without Prism; any other spec's operation is prepared on first use, with Prism.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Json, OperationEntry, SpecModel } from '@mall-api/spec-model';
import type { ResponsePreference } from './preferences.js';
import type { PrismEngine } from './prism-engine.js';

/** A documented response, ready to write. */
export interface PreparedResponse {
  readonly status: number;
  /** Headers Prism mocked from the spec (rate-limit ones are replaced when sending). */
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string;
  /** The serialized body ('' when there is none). */
  readonly payload: string;
}

/** Prepared responses of one operation, by `code|example` key. */
export type PreparedOperation = Readonly<Record<string, PreparedResponse>>;

/** The prepared responses of a whole API, for one version of its spec. */
export interface PreparedApi {
  readonly specDigest: string;
  readonly operations: Readonly<Record<string, PreparedOperation>>;
}

/** The table key of what a caller asked for. */
export const preparedKey = (preference: ResponsePreference): string =>
  `${preference.code ?? ''}|${preference.example ?? ''}`;

/** Serializes a mocked body the way the mock sends it: JSON unless the media type says otherwise. */
export function serializeBody(body: unknown, contentType: string): string {
  if (body === undefined) return '';
  return /\bjson\b/i.test(contentType) || typeof body !== 'string' ? JSON.stringify(body) : body;
}

function contentTypeOf(headers: Record<string, string>): string {
  const entry = Object.entries(headers).find(([name]) => /^content-type$/i.test(name));
  return entry?.[1] ?? 'application/json';
}

function exampleNames(spec: SpecModel, response: Json | undefined): string[] {
  const content = spec.resolve(response).content;
  const media =
    content && typeof content === 'object' && !Array.isArray(content)
      ? content['application/json']
      : undefined;
  const examples = media && typeof media === 'object' && !Array.isArray(media) ? media.examples : undefined;
  return examples && typeof examples === 'object' && !Array.isArray(examples) ? Object.keys(examples) : [];
}

/** Asks the engine for every documented response of `operation`. */
export async function prepareOperation(
  engine: PrismEngine,
  spec: SpecModel,
  operation: OperationEntry,
): Promise<PreparedOperation> {
  const path = operation.pathTemplate.replace(/\{[^}]+\}/g, '1');
  const table: Record<string, PreparedResponse> = {};
  const preferences: ResponsePreference[] = [{}];
  for (const code of operation.responseCodes) {
    if (!/^\d{3}$/.test(code)) continue;
    preferences.push({ code: Number(code) });
    for (const example of exampleNames(spec, operation.responses[code]))
      preferences.push({ code: Number(code), example });
  }
  const ask = async (preference: ResponsePreference) => {
    const result = await engine.handle(
      { method: operation.method, path, query: {}, headers: {}, body: undefined },
      preference,
    );
    if (result.kind !== 'response') return undefined;
    const contentType = contentTypeOf(result.headers);
    table[preparedKey(preference)] = {
      status: result.status,
      headers: result.headers,
      contentType,
      payload: serializeBody(result.body, contentType),
    };
    return result.status;
  };
  const [defaultPreference, ...others] = preferences;
  const defaultStatus = await ask(defaultPreference ?? {});
  // An example named without a code is one of the default response's examples.
  for (const example of exampleNames(spec, operation.responses[String(defaultStatus)]))
    others.push({ example });
  for (const preference of others) await ask(preference);
  return table;
}

/** Where the build keeps an API's prepared responses. */
export const preparedFile = (distDir: string, api: string): string =>
  join(distDir, 'prepared', `${api}.json`);

/** Reads prepared responses made for exactly this spec digest, or undefined. */
export async function loadPreparedApi(file: string, specDigest: string): Promise<PreparedApi | undefined> {
  try {
    const prepared = JSON.parse(await readFile(file, 'utf8')) as PreparedApi;
    return prepared.specDigest === specDigest ? prepared : undefined;
  } catch {
    return undefined;
  }
}
