// The console's request logic, apart from the page: turns what the reader typed into typed values
// (as the parameter's schema and style say: numbers, booleans, comma lists), validates them and the
// JSON body against the operation's schemas from the spec, and builds the fetch request. The
// conversion, the Ajv configuration and the naming of problems are the spec model's, as the mock
// uses them (its browser-safe entry point). No DOM here, so every rule is unit-tested
// (console-request.test.ts).
import {
  createAjv,
  fieldViolation,
  isReportedError,
  parameterTexts,
  parameterValue,
  parameterViolation,
} from '@mall-api/spec-model/browser';
import type { ConsoleOperation, ConsoleParameter, Schema } from './console-model.js';

/** A problem found before sending: which parameter or body field, and what is wrong. */
export interface InputProblem {
  name: string;
  message: string;
}

/** What the reader entered: raw text per parameter name, and the body text. */
export interface ConsoleInput {
  values: Record<string, string>;
  body: string;
}

/**
 * The text of one field typed as the parameter's schema and style say (spaces around a list's
 * commas dropped, as a reader types them); text that does not convert stays text (Ajv reports it).
 */
export function typedValue(parameter: ConsoleParameter, raw: string): unknown {
  const text = parameter.schema.type === 'array' ? raw.trim().replace(/\s*,\s*/g, ',') : raw.trim();
  return parameterValue(parameter, parameter.schema, text);
}

const ajv = createAjv();

/** Compiled validators, per schema object of the console data (compiled on first use). */
const validators = new WeakMap<object, ReturnType<typeof ajv.compile>>();
const compiled = (schema: Schema) => {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
};
/** The schema of an operation's parameters as one object, the required ones required. */
const parameterSchemas = new WeakMap<ConsoleOperation, Schema>();
const parameterSchemaOf = (operation: ConsoleOperation): Schema => {
  let schema = parameterSchemas.get(operation);
  if (!schema) {
    schema = {
      type: 'object',
      properties: Object.fromEntries(operation.parameters.map((p) => [p.name, p.schema])),
      required: operation.parameters.filter((p) => p.required).map((p) => p.name),
    };
    parameterSchemas.set(operation, schema);
  }
  return schema;
};

/** The parameters the reader filled in, typed per their schemas (empty fields left out). */
export function typedParameters(
  operation: ConsoleOperation,
  input: ConsoleInput,
): Map<ConsoleParameter, unknown> {
  const typed = new Map<ConsoleParameter, unknown>();
  for (const parameter of operation.parameters) {
    const raw = input.values[parameter.name] ?? '';
    if (raw.trim() !== '') typed.set(parameter, typedValue(parameter, raw));
  }
  return typed;
}

/**
 * Validates the input against the operation's schemas: the parameters (as one object, with the
 * required ones required) and the JSON body. An empty list means the request may be sent.
 */
export function inputProblems(operation: ConsoleOperation, input: ConsoleInput): InputProblem[] {
  const parameters = typedParameters(operation, input);
  const validateParameters = compiled(parameterSchemaOf(operation));
  const values = Object.fromEntries([...parameters].map(([parameter, value]) => [parameter.name, value]));
  const problems: InputProblem[] = validateParameters(values)
    ? []
    : (validateParameters.errors ?? []).map(parameterViolation);
  if (operation.body) {
    const text = input.body.trim();
    if (text === '') {
      if (operation.body.required) problems.push({ name: 'body', message: 'is required' });
    } else {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        problems.push({ name: 'body', message: `is not JSON (${(error as Error).message})` });
        return problems;
      }
      const validateBody = compiled(operation.body.schema);
      if (!validateBody(body))
        problems.push(...(validateBody.errors ?? []).filter(isReportedError).map((e) => fieldViolation(e)));
    }
  }
  return problems;
}

/** The request to send: URL (path filled in, query serialized by each parameter's style) and fetch options. */
export function buildRequest(
  operation: ConsoleOperation,
  input: ConsoleInput,
  baseUrl: string,
  authorization: string | undefined,
): { url: string; init: RequestInit } {
  const parameters = typedParameters(operation, input);
  const query = new URLSearchParams();
  const headers = new Headers();
  let path = operation.path;
  for (const [parameter, value] of parameters) {
    const texts = parameterTexts(parameter, value);
    if (parameter.in === 'query') for (const text of texts) query.append(parameter.name, text);
    else if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(texts.join(',')));
    else headers.set(parameter.name, texts.join(','));
  }
  if (authorization) headers.set('Authorization', authorization);
  const body = operation.body && input.body.trim() !== '' ? input.body : undefined;
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const search = query.toString().replace(/%2C/gi, ',');
  return {
    url: `${baseUrl.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`,
    init: { method: operation.method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) },
  };
}

/** The response headers the console highlights: the API's rate-limit headers and Retry-After. */
export const isRateLimitHeader = (name: string): boolean =>
  /^(x-ratelimit-|x-api-call-limit$|retry-after$)/i.test(name);
