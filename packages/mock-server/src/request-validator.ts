// Converts and validates a request's parameters and body against its operation, with validators
// compiled once per operation from the spec model's one Ajv registration (JSON Schema 2020-12, as
// OpenAPI 3.1 uses it). Path, query and header values are deserialized by their schemas and style
// (comma lists, numbers, booleans) and the converted values are kept: the stages after validation
// read them instead of parsing the raw query again. Every failure becomes a violation naming the
// parameter or body field, as the API's 422 envelope reports it.
import type { IncomingHttpHeaders } from 'node:http';
import type { OperationEntry, OperationParameter, SpecModel } from '@mall-api/spec-model';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Violation } from './error-envelope.js';
import { coerceParameter } from './parameter-coercion.js';
import type { ConvertedParameters } from './pipeline/phases.js';

/** The raw parts of a request the validator reads. */
export interface RawRequestParts {
  /** Decoded path parameters. */
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: IncomingHttpHeaders;
  readonly body?: unknown;
}

/** The converted parameters of a request and the rules it breaks. */
export interface CheckedRequest {
  readonly parameters: ConvertedParameters;
  readonly violations: Violation[];
}

/** Converts and validates requests to one operation. */
export type RequestValidator = (request: RawRequestParts) => CheckedRequest;

type Location = 'path' | 'query' | 'header';

function messageOf(error: ErrorObject, nameUnknownKeys = false): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties' && nameUnknownKeys) return 'is not a known key';
  if (error.keyword === 'enum')
    return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? 'is not valid';
}

/**
 * The parameter or field an error is about: `limit`, `request.category_name`, `shop_name`; with
 * `nameUnknownKeys`, an unexpected key is named itself rather than the object holding it.
 */
function nameOf(error: ErrorObject, topLevel: boolean, nameUnknownKeys = false): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' || error.keyword === 'dependentRequired') {
    segments.push(String(error.params.missingProperty));
  }
  if (error.keyword === 'additionalProperties' && nameUnknownKeys)
    segments.push(String(error.params.additionalProperty));
  // For a parameter, the first segment is the parameter; an item index below it adds nothing.
  const relevant = topLevel ? segments.slice(0, 1) : segments.filter((s) => !/^\d+$/.test(s));
  return relevant.join('.') || 'request';
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

const rawValue = (location: Location, parameter: OperationParameter, request: RawRequestParts) =>
  location === 'path'
    ? request.pathParameters[parameter.name]
    : location === 'query'
      ? request.query[parameter.name]
      : request.headers[parameter.name.toLowerCase()];

/** How violations are named. */
export interface ValidatorOptions {
  /** Name an unexpected body key itself (`to.sed`) instead of the object that holds it (the APIs' way). */
  readonly nameUnknownKeys?: boolean;
}

/** Creates the compiler for one spec; call it once per operation. */
export function requestValidatorCompiler(
  spec: SpecModel,
  { nameUnknownKeys = false }: ValidatorOptions = {},
): (operation: OperationEntry) => RequestValidator {
  const compiler = spec.schemas();
  const parameterValidator = (parameters: readonly OperationParameter[]): ValidateFunction =>
    compiler.compile({
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
    });

  return (operation) => {
    const byLocation = new Map<Location, OperationParameter[]>();
    for (const parameter of operation.parameters) {
      if (parameter.in === 'cookie') continue;
      byLocation.set(parameter.in, [...(byLocation.get(parameter.in) ?? []), parameter]);
    }
    const validators = [...byLocation].map(([location, parameters]) => ({
      location,
      parameters,
      itemSchemas: new Map(parameters.map((p) => [p.name, spec.resolveOptional(p.schema.items)])),
      validate: parameterValidator(parameters),
    }));
    const bodyValidator = operation.bodySchema ? compiler.compile(operation.bodySchema) : undefined;

    return (request) => {
      const violations: Violation[] = [];
      const converted: Record<Location, Record<string, unknown>> = { path: {}, query: {}, header: {} };
      for (const { location, parameters, itemSchemas, validate } of validators) {
        const values = converted[location];
        for (const parameter of parameters) {
          const raw = rawValue(location, parameter, request);
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
          violations.push({
            location: 'body',
            name: nameOf(error, false, nameUnknownKeys),
            message: messageOf(error, nameUnknownKeys),
          });
        }
      }
      if (operation.bodyRequired && request.body === undefined) {
        violations.push({ location: 'body', name: 'request', message: 'a request body is required' });
      }
      return { parameters: converted, violations: dedupe(violations) };
    };
  };
}
