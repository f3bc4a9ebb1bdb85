// Loads a bundled OpenAPI document from `@mall-api/specs` and indexes its operations: the method
// and path template, operationId, required scope and resolved parameters. Routing, scope checks
// and the extra validation rules read this index; it never changes the document.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A JSON value of the OpenAPI document. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A resolved parameter of an operation. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly required: boolean;
  /** The parameter's schema, as written (it may hold `$ref`s into the document). */
  readonly schema: JsonObject;
  /** `explode` as declared, if it was. */
  readonly explode?: boolean;
  readonly extensions: JsonObject;
}

/** One operation of the document, as the front layer needs it. */
export interface OperationEntry {
  readonly operationId: string;
  readonly method: string;
  readonly pathTemplate: string;
  readonly requiredScope: string | undefined;
  readonly parameters: readonly OperationParameter[];
  readonly mutuallyExclusive: readonly (readonly [string, string])[];
  readonly responseCodes: readonly string[];
  /** The operation's `responses` object, as written. */
  readonly responses: JsonObject;
  /** Media types the request body may have (empty when the operation takes no body). */
  readonly bodyMediaTypes: readonly string[];
  /** The JSON request body's schema, if the operation takes one. */
  readonly bodySchema?: JsonObject;
  /** Whether the request body is required. */
  readonly bodyRequired: boolean;
  readonly matches: (path: string) => boolean;
  /** The path parameters of a concrete path that matches (raw, still URL-encoded). */
  readonly pathParameters: (path: string) => Record<string, string>;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows local `#/…` references until a non-reference object is reached. */
export function resolveRef(document: JsonObject, value: Json | undefined): JsonObject {
  let current = value;
  for (let depth = 0; depth < 32 && isObject(current) && typeof current.$ref === 'string'; depth++) {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    current = pointer.reduce<Json | undefined>(
      (node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      document,
    );
  }
  if (!isObject(current))
    throw new Error(`unresolvable reference in the bundled spec: ${JSON.stringify(value)}`);
  return current;
}

function templateMatcher(template: string): {
  matches: (path: string) => boolean;
  pathParameters: (path: string) => Record<string, string>;
} {
  const names: string[] = [];
  const pattern = template
    .split('/')
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (!name) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('/');
  const regex = new RegExp(`^${pattern}/?$`);
  return {
    matches: (path) => regex.test(path),
    pathParameters: (path) => {
      const values = regex.exec(path)?.slice(1) ?? [];
      return Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
    },
  };
}

function extensionsOf(node: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(node).filter(([key]) => key.startsWith('x-')));
}

function requestBodyOf(
  document: JsonObject,
  operation: JsonObject,
): { bodyMediaTypes: string[]; bodySchema?: JsonObject; bodyRequired: boolean } {
  const body = operation.requestBody === undefined ? undefined : resolveRef(document, operation.requestBody);
  const content = body && isObject(body.content) ? body.content : {};
  const json = content['application/json'];
  const schema = isObject(json) && isObject(json.schema) ? json.schema : undefined;
  return {
    bodyMediaTypes: Object.keys(content),
    ...(schema ? { bodySchema: schema } : {}),
    bodyRequired: body?.required === true,
  };
}

/** Builds the operation index of a bundled document. */
export function indexOperations(document: JsonObject): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [pathTemplate, pathItemRef] of Object.entries(paths)) {
    const pathItem = resolveRef(document, pathItemRef);
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const rawParameters = [
        ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ];
      const parameters = rawParameters.map((raw): OperationParameter => {
        const parameter = resolveRef(document, raw);
        return {
          name: String(parameter.name),
          in: String(parameter.in) as OperationParameter['in'],
          required: parameter.required === true,
          schema: isObject(parameter.schema) ? resolveRef(document, parameter.schema) : {},
          ...(typeof parameter.explode === 'boolean' ? { explode: parameter.explode } : {}),
          extensions: extensionsOf(parameter),
        };
      });
      const exclusive = Array.isArray(operation['x-mutually-exclusive'])
        ? operation['x-mutually-exclusive']
        : [];
      entries.push({
        operationId: String(operation.operationId),
        method,
        pathTemplate,
        requiredScope:
          typeof operation['x-required-scope'] === 'string' ? operation['x-required-scope'] : undefined,
        parameters,
        mutuallyExclusive: exclusive.flatMap((pair) =>
          Array.isArray(pair) && pair.length === 2 ? [[String(pair[0]), String(pair[1])] as const] : [],
        ),
        responseCodes: isObject(operation.responses) ? Object.keys(operation.responses) : [],
        responses: isObject(operation.responses) ? operation.responses : {},
        ...requestBodyOf(document, operation),
        ...templateMatcher(pathTemplate),
      });
    }
  }
  return entries;
}

/** Finds the operation for a method and concrete path, if any. */
export function findOperation(
  entries: readonly OperationEntry[],
  method: string,
  path: string,
): OperationEntry | undefined {
  const lower = method.toLowerCase();
  return entries.find((entry) => entry.method === lower && entry.matches(path));
}

/** This package's compiled output folder (where the build keeps prepared responses). */
export const distDirectory = dirname(fileURLToPath(import.meta.url));

/** Reads a bundled spec (`<api>.openapi.json`) shipped by `@mall-api/specs`, with the digest of its text. */
export async function loadBundledSpec(specFile: string): Promise<{ document: JsonObject; digest: string }> {
  const require = createRequire(import.meta.url);
  const file = require.resolve(`@mall-api/specs/${specFile}`);
  const text = await readFile(file, 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  return { document: parsed as JsonObject, digest: createHash('sha256').update(text).digest('hex') };
}
