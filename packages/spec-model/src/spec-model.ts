// The spec model: a bundled document with its digest, its operation index and routing, reference
// resolution and a schema compiler created on first use. `loadSpec` reads the bundle shipped by
// `@mall-api/specs` (a platform API's, or the mocks' control API's), `loadSpecs` every platform
// API's bundle but those a caller already holds; `createSpecModel` wraps any document (a test's
// modified copy, say).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type ApiName, apiNames, type SpecName } from './api-names.js';
import {
  dereference,
  isJsonObject,
  type Json,
  type JsonObject,
  resolve,
  resolveOptional,
} from './json-document.js';
import { type HttpMethod, httpMethods, indexOperations, type OperationEntry } from './operation-index.js';
import { createSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';

/** A routed request: the operation and its decoded path parameters. */
export interface Route {
  readonly operation: OperationEntry;
  readonly pathParameters: Readonly<Record<string, string>>;
}

/** A bundled OpenAPI document and everything read from it. */
export interface SpecModel {
  readonly document: JsonObject;
  /** SHA-256 of the bundle's text (of the JSON text when created from an object). */
  readonly digest: string;
  /** Every operation, most specific path templates first. */
  readonly operations: readonly OperationEntry[];
  /** The operation with this operationId. */
  operation(operationId: string): OperationEntry | undefined;
  /** The operation a method and concrete path address, preferring literal segments. */
  route(method: string, path: string): Route | undefined;
  /** Whether some operation exists at `path` under another method (for 405 versus 404). */
  pathExists(path: string): boolean;
  /** Follows `$ref`s to the node they name; throws on a dangling reference. */
  resolve(node: Json | undefined): JsonObject;
  /** Follows `$ref`s; `undefined` for an absent node or a dangling reference. */
  resolveOptional(node: Json | undefined): JsonObject | undefined;
  /** A deep copy of `node` with every local reference replaced. */
  dereference(node: Json): Json;
  /** The document's schema compiler (one Ajv instance, created on first use). */
  schemas(): SchemaCompiler;
}

/** Routes (method and concrete path) a spec model remembers at most. */
const routesKept = 1_024;

/** Wraps a parsed OpenAPI document. */
export function createSpecModel(document: JsonObject, digest?: string): SpecModel {
  const operations = indexOperations(document);
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const byMethod = new Map<string, OperationEntry[]>(httpMethods.map((method) => [method, []]));
  for (const operation of operations) byMethod.get(operation.method)?.push(operation);
  let compiler: SchemaCompiler | undefined;
  const find = (candidates: readonly OperationEntry[], path: string): Route | undefined => {
    for (const operation of candidates) {
      const pathParameters = operation.matchPath(path);
      if (pathParameters) return Object.freeze({ operation, pathParameters: Object.freeze(pathParameters) });
    }
    return undefined;
  };
  // Clients call the same paths again and again: each method and path is matched once (and the
  // frozen route handed out again) until `routesKept` are known, when the memory starts over.
  const routes = new Map<string, Route | undefined>();
  const route = (method: string, path: string): Route | undefined => {
    const key = `${method} ${path}`;
    if (routes.has(key)) return routes.get(key);
    const found = find(byMethod.get(method.toLowerCase() as HttpMethod) ?? [], path);
    if (routes.size >= routesKept) routes.clear();
    routes.set(key, found);
    return found;
  };
  return {
    document,
    digest: digest ?? createHash('sha256').update(JSON.stringify(document)).digest('hex'),
    operations,
    operation: (operationId) => byId.get(operationId),
    route,
    pathExists: (path) => find(operations, path) !== undefined,
    resolve: (node) => resolve(document, node),
    resolveOptional: (node) => resolveOptional(document, node),
    dereference: (node) => dereference(document, node),
    schemas: () => {
      compiler ??= createSchemaCompiler(document);
      return compiler;
    },
  };
}

const require = createRequire(import.meta.url);

/** The file path of a bundled JSON document in the installed `@mall-api/specs`. */
export function bundledSpecPath(api: SpecName): string {
  return require.resolve(`@mall-api/specs/${api}.openapi.json`);
}

function modelOfText(text: string, file: string): SpecModel {
  const parsed: unknown = JSON.parse(text);
  if (!isJsonObject(parsed)) throw new Error(`${file} is not an OpenAPI document`);
  return createSpecModel(parsed, createHash('sha256').update(text).digest('hex'));
}

/**
 * The models read so far, one per API: every reader in a process (the mock, the sandbox, the demo
 * credentials) shares one parse of each bundle. Models are read-only; a test that needs a changed
 * document copies it and calls {@link createSpecModel}.
 */
const loaded = new Map<SpecName, SpecModel | Promise<SpecModel>>();

/** Reads an API's bundle once per process (build `@mall-api/specs` first). */
export async function loadSpec(api: SpecName): Promise<SpecModel> {
  let model = loaded.get(api);
  if (!model) {
    const file = bundledSpecPath(api);
    model = readFile(file, 'utf8').then((text) => {
      const parsed = modelOfText(text, file);
      loaded.set(api, parsed);
      return parsed;
    });
    loaded.set(api, model);
    // A failed read is not kept: the next call tries again.
    model.catch(() => loaded.delete(api));
  }
  return model;
}

/** The spec model of each platform API. */
export type ApiSpecs = Readonly<Record<ApiName, SpecModel>>;

/**
 * The model of every platform API: the given ones (a test's changed copies), and the shipped
 * bundle of each API not given (read as {@link loadSpec} reads it).
 */
export async function loadSpecs(
  given: Partial<Record<ApiName, SpecModel | undefined>> = {},
): Promise<ApiSpecs> {
  const models = await Promise.all(apiNames.map((api) => given[api] ?? loadSpec(api)));
  return Object.fromEntries(apiNames.map((api, i) => [api, models[i]])) as Record<ApiName, SpecModel>;
}

/** Reads an API's bundle synchronously, once per process (for build scripts and module set-up). */
export function loadSpecSync(api: SpecName): SpecModel {
  const cached = loaded.get(api);
  if (cached && !(cached instanceof Promise)) return cached;
  const file = bundledSpecPath(api);
  const model = modelOfText(readFileSync(file, 'utf8'), file);
  loaded.set(api, model);
  return model;
}
