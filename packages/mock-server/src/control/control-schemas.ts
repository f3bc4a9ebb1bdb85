// The JSON Schemas of the control API's request bodies and journal filters, compiled once. Every
// control call is validated against them before it changes anything.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { Violation } from '../error-envelope.js';

// A union is told apart by one test (`if` the value is a string, or on `kind`), never by `oneOf`, so
// one mistake is one violation that names its key rather than one per branch.
const mallStart = {
  if: { type: 'string' },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited
  then: { enum: ['seed', 'empty'] },
  else: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    properties: {
      seed: { type: 'integer', minimum: 0 },
      fixture: { type: 'string', minLength: 1 },
    },
  },
};

/** The fields of a fault action of one kind, the `kind` included. */
const actionOf = (kind: string, required: string[], properties: Record<string, object>) => ({
  if: { required: ['kind'], properties: { kind: { const: kind } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited
  then: { type: 'object', additionalProperties: false, required, properties: { kind: {}, ...properties } },
});

const faultAction = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: ['delay', 'status', 'drop', 'hang'] } },
  allOf: [
    actionOf('delay', ['minMs'], {
      minMs: { type: 'integer', minimum: 0, maximum: 600_000 },
      maxMs: { type: 'integer', minimum: 0, maximum: 600_000 },
    }),
    actionOf('status', ['status'], {
      status: { type: 'integer', minimum: 400, maximum: 599 },
      retryAfterSeconds: { type: 'integer', minimum: 0, maximum: 86_400 },
    }),
    actionOf('drop', [], {}),
    actionOf('hang', [], {}),
  ],
};

const schemas = {
  reset: {
    type: 'object',
    additionalProperties: false,
    properties: { to: mallStart },
  },
  fault: {
    type: 'object',
    additionalProperties: false,
    required: ['action'],
    properties: {
      match: {
        type: 'object',
        additionalProperties: false,
        properties: {
          api: { enum: ['collection', 'admin', 'analytics'] },
          operationId: { type: 'string', minLength: 1 },
          method: { enum: ['GET', 'POST', 'PUT', 'DELETE', 'get', 'post', 'put', 'delete'] },
          path: { type: 'string', pattern: '^/' },
        },
      },
      times: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      action: faultAction,
    },
  },
  clock: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    properties: {
      advanceMs: { type: 'integer', minimum: 0, maximum: 10 * 365 * 86_400_000 },
      at: { type: 'string', format: 'date-time' },
    },
  },
  journalFilter: {
    type: 'object',
    additionalProperties: false,
    properties: {
      api: { enum: ['collection', 'admin', 'analytics'] },
      method: { type: 'string', pattern: '^[A-Za-z]+$' },
      path: { type: 'string', pattern: '^/' },
      operationId: { type: 'string', minLength: 1 },
      status: { type: 'integer', minimum: 0, maximum: 599 },
      after: { type: 'integer', minimum: 0 },
    },
  },
} as const;

/** The name of a control schema. */
export type ControlSchema = keyof typeof schemas;

const ajv = new Ajv2020({ allErrors: true, coerceTypes: false });
ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)) && /T/.test(value));
const validators = Object.fromEntries(
  Object.entries(schemas).map(([name, schema]) => [name, ajv.compile(schema)]),
) as Record<ControlSchema, ReturnType<typeof ajv.compile>>;

/** The key an error is about: its path, plus the missing or unexpected property it names. */
const keyOf = (error: ErrorObject): string[] => {
  const key = error.params.missingProperty ?? error.params.additionalProperty;
  return [...error.instancePath.split('/').slice(1), ...(key === undefined ? [] : [String(key)])];
};

const messageOf = (error: ErrorObject): string => {
  if (error.keyword === 'additionalProperties') return 'is not a known key';
  if (error.keyword === 'enum')
    return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? 'is not valid';
};

const violationOf = (location: Violation['location'], error: ErrorObject): Violation => ({
  location,
  name: keyOf(error).join('.') || (location === 'body' ? 'body' : 'query'),
  message: messageOf(error),
});

/** The violations of a value against a control schema (empty when it is valid). */
export function controlViolations(
  schema: ControlSchema,
  value: unknown,
  location: Violation['location'] = 'body',
): Violation[] {
  const validate = validators[schema];
  if (validate(value)) return [];
  // An `if` error only says that its branch failed; the branch's own error names the key.
  return (validate.errors ?? [])
    .filter((error) => error.keyword !== 'if')
    .map((error) => violationOf(location, error));
}
