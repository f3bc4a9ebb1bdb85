// Validates a request against its operation's schemas with validators compiled once at start-up
// (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it): path, query and header parameters after
// OpenAPI deserialization, and the JSON body. Every failure becomes a violation naming the
// parameter or body field, as the API's 422 envelope reports it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { Violation } from './error-envelope.js';
import { coerceParameter } from './parameter-coercion.js';
import type { Json, OperationEntry, OperationParameter } from './spec-document.js';

type Schema = { [key: string]: unknown };
type Location = 'path' | 'query' | 'header';

/** The parts of a request the validator reads. */
export interface RequestParts {
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/** Validates requests to one operation. */
export type RequestValidator = (request: RequestParts) => Violation[];

const documentId = 'openapi';

/** Points the document-local `#/...` references of a schema at the registered document. */
function anchorRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anchorRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#')
        ? [key, `${documentId}${inner}`]
        : [key, anchorRefs(inner)],
    ),
  );
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'enum')
    return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? 'is not valid';
}

/** The parameter or field an error is about: `limit`, `request.category_name`, `shop_name`. */
function nameOf(error: ErrorObject, topLevel: boolean): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' || error.keyword === 'dependentRequired') {
    segments.push(String(error.params.missingProperty));
  }
  // For a parameter, the first segment is the parameter; an item index below it adds nothing.
  const relevant = topLevel ? segments.slice(0, 1) : segments.filter((s) => !/^\d+$/.test(s));
  return relevant.join('.') || 'request';
}

/** Creates the compiler for one bundled document; call it once per operation. */
export function requestValidatorCompiler(
  document: Record<string, Json>,
): (operation: OperationEntry) => RequestValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (formats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: documentId });

  const parameterValidator = (parameters: readonly OperationParameter[]): ValidateFunction => {
    const properties = Object.fromEntries(parameters.map((p) => [p.name, anchorRefs(p.schema)]));
    const required = parameters.filter((p) => p.required).map((p) => p.name);
    return ajv.compile({ type: 'object', properties, required });
  };

  return (operation) => {
    const byLocation = new Map<Location, OperationParameter[]>();
    for (const parameter of operation.parameters) {
      if (parameter.in === 'cookie') continue;
      const list = byLocation.get(parameter.in) ?? [];
      list.push(parameter);
      byLocation.set(parameter.in, list);
    }
    const validators = [...byLocation].map(([location, parameters]) => ({
      location,
      parameters,
      itemSchemas: new Map(parameters.map((p) => [p.name, resolveItems(document, p.schema)])),
      validate: parameterValidator(parameters),
    }));
    const bodyValidator = operation.bodySchema
      ? ajv.compile(anchorRefs(operation.bodySchema) as Schema)
      : undefined;

    return (request) => {
      const violations: Violation[] = [];
      const pathValues = operation.pathParameters(request.path);
      for (const { location, parameters, itemSchemas, validate } of validators) {
        const values: Record<string, unknown> = {};
        for (const parameter of parameters) {
          const raw =
            location === 'path'
              ? safeDecode(pathValues[parameter.name])
              : location === 'query'
                ? request.query[parameter.name]
                : request.headers[parameter.name.toLowerCase()];
          if (raw !== undefined)
            values[parameter.name] = coerceParameter(parameter, raw, itemSchemas.get(parameter.name));
        }
        if (!validate(values)) {
          for (const error of validate.errors ?? []) {
            violations.push({ location, name: nameOf(error, true), message: messageOf(error) });
          }
        }
      }
      if (bodyValidator && request.body !== undefined && !bodyValidator(request.body)) {
        for (const error of bodyValidator.errors ?? []) {
          if (error.keyword === 'if') continue;
          violations.push({ location: 'body', name: nameOf(error, false), message: messageOf(error) });
        }
      }
      if (operation.bodyRequired && request.body === undefined) {
        violations.push({ location: 'body', name: 'request', message: 'a request body is required' });
      }
      return dedupe(violations);
    };
  };
}

function resolveItems(document: Record<string, Json>, schema: Record<string, Json>): Schema | undefined {
  let items = schema.items as Schema | undefined;
  for (let i = 0; i < 16 && items && typeof items.$ref === 'string'; i++) {
    items = (items.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document) as
      | Schema
      | undefined;
  }
  return items;
}

function safeDecode(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.location}|${v.name}|${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
