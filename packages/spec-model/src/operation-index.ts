// The operation index of a bundled document: one entry per operation with its method, path
// template, operationId, required scope, resolved parameters, request body, responses and their
// links, and a matcher for concrete paths. Entries are ordered by path specificity — at the first segment where
// two templates differ, a literal segment comes before a templated one — so routing never depends
// on the order a spec lists its paths in (`/products/count` wins over `/products/{product_no}`).
import {
  extensionsOf,
  isJsonObject,
  type Json,
  type JsonObject,
  resolve,
  resolveOptional,
} from './json-document.js';
import { linksOf, type OperationLink } from './operation-links.js';

/** The HTTP methods an OpenAPI path item may hold operations for. */
export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
/** One of {@link httpMethods}. */
export type HttpMethod = (typeof httpMethods)[number];

/** A resolved parameter of an operation. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly required: boolean;
  /** The parameter's schema, resolved one level (inner `$ref`s stay as written). */
  readonly schema: JsonObject;
  /** `explode` as declared, if it was. */
  readonly explode?: boolean;
  /** `style` as declared, if it was. */
  readonly style?: string;
  /** The parameter object itself, resolved (description, examples, …). */
  readonly definition: JsonObject;
  readonly extensions: JsonObject;
}

/** One operation of the document. */
export interface OperationEntry {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly pathTemplate: string;
  /** The operation object as written. */
  readonly definition: JsonObject;
  /** The operation's own `x-` extensions. */
  readonly extensions: JsonObject;
  /** `x-required-scope`, if declared. */
  readonly requiredScope: string | undefined;
  readonly parameters: readonly OperationParameter[];
  /** Status codes of the documented responses, as written (`200`, `4XX`, `default`). */
  readonly responseCodes: readonly string[];
  /** The operation's `responses` object, as written. */
  readonly responses: JsonObject;
  /** Media types the request body may have (empty when the operation takes no body). */
  readonly bodyMediaTypes: readonly string[];
  /** The JSON request body's media type object, resolved, if the operation takes one. */
  readonly jsonBody?: JsonObject;
  /** The JSON request body's schema, as written, if the operation takes one. */
  readonly bodySchema?: JsonObject;
  /** Whether the request body is required. */
  readonly bodyRequired: boolean;
  /** The `links` of its documented responses (which later operations their values feed). */
  readonly links: readonly OperationLink[];
  /** The path parameters of a concrete path, decoded, or `undefined` when it does not match. */
  readonly matchPath: (path: string) => Record<string, string> | undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const templated = (segment: string) => /\{[^}]+\}/.test(segment);

function pathMatcher(template: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split('/')
    .map((segment) =>
      segment.replace(/\{([^}]+)\}|[^{]+/g, (part, name: string | undefined) => {
        if (name === undefined) return escapeRegExp(part);
        names.push(name);
        return '([^/]+)';
      }),
    )
    .join('/');
  const regex = new RegExp(`^${pattern}/?$`);
  return (path) => {
    const values = regex.exec(path);
    if (!values) return undefined;
    const parameters: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      const raw = values[i + 1] ?? '';
      try {
        parameters[name] = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
    return parameters;
  };
}

/** Negative when template `a` is more specific than `b` (a literal segment where `b` has a template). */
export function compareSpecificity(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const l = left[i] ?? '';
    const r = right[i] ?? '';
    if (l === r) continue;
    const lt = templated(l);
    const rt = templated(r);
    if (lt !== rt) return lt ? 1 : -1;
  }
  return right.length - left.length || (a < b ? -1 : a > b ? 1 : 0);
}

function parameterOf(document: JsonObject, raw: Json): OperationParameter {
  const definition = resolve(document, raw);
  return {
    name: String(definition.name),
    in: String(definition.in) as OperationParameter['in'],
    required: definition.required === true,
    schema: resolveOptional(document, definition.schema) ?? {},
    ...(typeof definition.explode === 'boolean' ? { explode: definition.explode } : {}),
    ...(typeof definition.style === 'string' ? { style: definition.style } : {}),
    definition,
    extensions: extensionsOf(definition),
  };
}

function requestBodyOf(document: JsonObject, operation: JsonObject) {
  const body = resolveOptional(document, operation.requestBody);
  const content = body && isJsonObject(body.content) ? body.content : {};
  const jsonBody = resolveOptional(document, content['application/json']);
  const schema = jsonBody && isJsonObject(jsonBody.schema) ? jsonBody.schema : undefined;
  return {
    bodyMediaTypes: Object.keys(content),
    ...(jsonBody ? { jsonBody } : {}),
    ...(schema ? { bodySchema: schema } : {}),
    bodyRequired: body?.required === true,
  };
}

/** Builds the operation index of a bundled document, most specific path templates first. */
export function indexOperations(document: JsonObject): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const [pathTemplate, pathItemRef] of Object.entries(paths)) {
    const pathItem = resolve(document, pathItemRef);
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of httpMethods) {
      const operation = resolveOptional(document, pathItem[method]);
      if (!operation) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      // An operation's own parameter overrides the path item's of the same name and location.
      const byKey = new Map<string, OperationParameter>();
      for (const raw of [...shared, ...own]) {
        const parameter = parameterOf(document, raw);
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      const responses = isJsonObject(operation.responses) ? operation.responses : {};
      entries.push({
        operationId: String(operation.operationId),
        method,
        pathTemplate,
        definition: operation,
        extensions: extensionsOf(operation),
        requiredScope:
          typeof operation['x-required-scope'] === 'string' ? operation['x-required-scope'] : undefined,
        parameters: [...byKey.values()],
        responseCodes: Object.keys(responses),
        responses,
        ...requestBodyOf(document, operation),
        links: linksOf(document, responses),
        matchPath: pathMatcher(pathTemplate),
      });
    }
  }
  return entries.sort((a, b) => compareSpecificity(a.pathTemplate, b.pathTemplate));
}
