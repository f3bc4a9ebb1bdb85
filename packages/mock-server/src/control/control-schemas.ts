// The JSON Schemas of the control API's request bodies and journal filters, compiled once. Every
// control call is validated against them before it changes anything.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { Violation } from '../error-envelope.js';

const mallStart = {
  oneOf: [
    { const: 'seed' },
    { const: 'empty' },
    {
      type: 'object',
      additionalProperties: false,
      properties: { seed: { type: 'integer', minimum: 0 } },
      required: ['seed'],
    },
    {
      type: 'object',
      additionalProperties: false,
      properties: { fixture: { type: 'string', minLength: 1 } },
      required: ['fixture'],
    },
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
      action: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'minMs'],
            properties: {
              kind: { const: 'delay' },
              minMs: { type: 'integer', minimum: 0, maximum: 600_000 },
              maxMs: { type: 'integer', minimum: 0, maximum: 600_000 },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'status'],
            properties: {
              kind: { const: 'status' },
              status: { type: 'integer', minimum: 400, maximum: 599 },
              retryAfterSeconds: { type: 'integer', minimum: 0, maximum: 86_400 },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['kind'],
            properties: { kind: { enum: ['drop', 'hang'] } },
          },
        ],
      },
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
      violated: { type: 'boolean' },
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

const violationOf = (location: Violation['location'], error: ErrorObject): Violation => ({
  location,
  name:
    [
      ...error.instancePath.split('/').slice(1),
      ...(error.keyword === 'required' ? [String(error.params.missingProperty)] : []),
    ].join('.') || (location === 'body' ? 'body' : 'query'),
  message: error.message ?? 'is not valid',
});

/** The violations of a value against a control schema (empty when it is valid). */
export function controlViolations(
  schema: ControlSchema,
  value: unknown,
  location: Violation['location'] = 'body',
): Violation[] {
  const validate = validators[schema];
  return validate(value) ? [] : (validate.errors ?? []).map((error) => violationOf(location, error));
}
