// Converts and validates a request's parameters and body against its operation, with validators
// compiled once per operation from the spec model's one Ajv registration. Parameter values are
// deserialized by their schemas and style and kept converted, so later stages do not parse the raw
// query again. Every failure is a violation naming the parameter or body field, as the 422 envelope
// reports it; conversion and naming are the spec model's.
import type { IncomingHttpHeaders } from 'node:http';
import {
  fieldViolation,
  isReportedError,
  type OperationEntry,
  type OperationParameter,
  parameterValue,
  parameterViolation,
  type SpecModel,
} from '@mall-api/spec-model';
import type { ValidateFunction } from 'ajv';
import type { Violation } from '../http/error-envelope.js';
import type { ConvertedParameters } from '../pipeline/phases.js';

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

/** Creates the compiler for one spec; call it once per operation. */
export function requestValidatorCompiler(spec: SpecModel): (operation: OperationEntry) => RequestValidator {
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
            values[parameter.name] = parameterValue(
              parameter,
              parameter.schema,
              raw,
              itemSchemas.get(parameter.name),
            );
        }
        if (!validate(values)) {
          for (const error of validate.errors ?? [])
            violations.push({ location, ...parameterViolation(error) });
        }
      }
      if (bodyValidator && request.body !== undefined && !bodyValidator(request.body)) {
        for (const error of (bodyValidator.errors ?? []).filter(isReportedError))
          violations.push({ location: 'body', ...fieldViolation(error) });
      }
      if (operation.bodyRequired && request.body === undefined) {
        violations.push({ location: 'body', name: 'request', message: 'a request body is required' });
      }
      return { parameters: converted, violations: dedupe(violations) };
    };
  };
}
