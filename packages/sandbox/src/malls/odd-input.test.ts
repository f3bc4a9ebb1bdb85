// Odd input reaching the sandbox, generated: for every operation of the three APIs the sandbox
// answers, calls built from the spec's own example request and then broken at random (path ids
// that do not exist or are not numbers, query values of the wrong type or out of range, body fields
// replaced by any JSON value or removed, or the body not an object at all), converted and checked
// as the front layer does with the spec model (`parameterValue`, the schemas, the body rules). What
// the front layer would refuse never reaches the sandbox; whatever does is answered as a value,
// never thrown: a success or a refusal with a reason and the fields named, and a refused write
// leaves every table of the mall exactly as it was. (The HTTP side — never a 5xx, always the error
// envelope — is mock-server's sandbox-mode-bad-input test.)
import {
  type ApiName,
  type ApiSpecs,
  bodyRuleBreaches,
  bodyRulesOf,
  type Json,
  type OperationEntry,
  type OperationParameter,
  parameterValue,
  type SpecModel,
} from '@mall-api/spec-model';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxMalls } from '../index.js';
import { type Body, closeTestMalls, openTestMalls, shippedSpecs } from '../testing/test-malls.js';

/** The one mall every admin and analytics call goes to. */
const mall = 'robustmall';
let malls: SandboxMalls;
let specs: ApiSpecs;

beforeAll(async () => {
  specs = await shippedSpecs();
  malls = await openTestMalls({ newMall: { seed: 4 } });
  await malls.reset(mall);
});
afterAll(closeTestMalls);

/** The mall's snapshot (every record of every table) as one string: equal strings mean nothing changed. */
const snapshot = () => JSON.stringify(malls.snapshot(mall));
/** The numbers the mall issued: its categories' and products'. */
const knownNumbers = () => {
  const tables = malls.snapshot(mall)?.tables;
  return [
    ...(tables?.category ?? []).map(([, record]) => (record as Body).category_no),
    ...(tables?.product ?? []).map(([, record]) => (record as Body).record?.product_no),
  ].filter((n): n is number => typeof n === 'number');
};

/** The first example of an operation's JSON request body, if it documents one. */
function exampleBody(spec: SpecModel, operation: OperationEntry): unknown {
  const raw = (spec.document as Body).paths[operation.pathTemplate][operation.method];
  if (!raw.requestBody) return undefined;
  const content = (spec.resolve(raw.requestBody) as Body).content?.['application/json'] as Body | undefined;
  const first: Json | undefined = Object.values(content?.examples ?? {})[0] as Json | undefined;
  return first === undefined ? undefined : structuredClone(spec.resolve(first).value);
}

/** A text a parameter of this schema accepts (its first enum value, its minimum, a date, …). */
function plausible(schema: Body): string {
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'array') return plausible(schema.items ?? {});
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.format === 'date') return '2026-11-01';
  return 'sandbox';
}

/** Texts that break parameters: wrong types, out of range, empty, huge, odd characters. */
const badValue = fc.oneof(
  fc.constantFrom('', '0', '-1', '2147483648', '99999999999999999999', 'abc', 'T', 'X', '1,2,,3', '🙂'),
  fc.integer().map(String),
  fc.string({ maxLength: 12 }),
);

/** A path id text: a number the sandbox issued, one it never did, or no number at all. */
const pathId = (known: number[]) =>
  fc.oneof(
    fc.constantFrom(...(known.length > 0 ? known : [1])).map(String),
    fc.constantFrom('2147483647', '999999', '0', '-5', 'abc', '1.5'),
  );

/** A change to a JSON body: a field replaced by any JSON value or removed, or the body replaced. */
const bodyMutation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), index: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('remove' as const), index: fc.nat() }),
  fc.record({
    kind: fc.constant('replace' as const),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ request: [] }), fc.constant([])),
  }),
);
type BodyMutation = typeof bodyMutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(body: unknown, mutation: BodyMutation): unknown {
  if (mutation.kind === 'replace') return mutation.value;
  const copy = structuredClone(body) as Body;
  const target = copy && typeof copy.request === 'object' && copy.request !== null ? copy.request : copy;
  if (!target || typeof target !== 'object') return copy;
  const keys = Object.keys(target);
  if (keys.length === 0) return copy;
  const key = keys[mutation.index % keys.length] as string;
  if (mutation.kind === 'remove') delete target[key];
  else target[key] = mutation.value;
  return copy;
}

/**
 * The front layer's check of a call, by the spec model: the parameters' texts converted to their
 * schema types and validated, the body validated and its body rules kept. Undefined when it refuses.
 */
function admitted(
  spec: SpecModel,
  operation: OperationEntry,
  texts: { path: Record<string, string>; query: Record<string, string> },
  body: unknown,
): { path: Record<string, unknown>; query: Record<string, unknown> } | undefined {
  const converted = (location: 'path' | 'query') => {
    const parameters = operation.parameters.filter((p: OperationParameter) => p.in === location);
    const values = Object.fromEntries(
      parameters
        .filter((p) => texts[location][p.name] !== undefined)
        .map((p) => [
          p.name,
          parameterValue(
            p,
            p.schema,
            texts[location][p.name] as string,
            spec.resolveOptional(p.schema.items),
          ),
        ]),
    );
    const valid = spec.schemas().compile({
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
    })(values);
    return valid ? values : undefined;
  };
  const path = converted('path');
  const query = converted('query');
  if (!path || !query) return undefined;
  if (operation.bodySchema) {
    if (body === undefined ? operation.bodyRequired : !spec.schemas().compile(operation.bodySchema)(body))
      return undefined;
    const rules = bodyRulesOf(spec.dereference(operation.bodySchema));
    if (body !== undefined && bodyRuleBreaches(rules, body).length > 0) return undefined;
  }
  return { path, query };
}

describe.each<[ApiName, number]>([
  ['admin', 600],
  ['collection', 300],
  ['analytics', 400],
])('the %s sandbox under odd input', (api, runs) => {
  it(`answers every call the front layer admits as a value, and a refused write changes nothing (${runs} generated calls)`, async () => {
    const spec = specs[api];
    const operations = new Map(
      spec.operations
        .filter((operation) => malls.handles(api, operation.operationId))
        .map((operation) => [operation.operationId, operation]),
    );
    expect(operations.size).toBeGreaterThan(0);
    const seen = { answered: 0, refused: new Set<string>(), admitted: 0 };

    fc.assert(
      fc.property(
        fc.constantFrom(...operations.keys()),
        fc.array(fc.tuple(fc.nat(), badValue), { maxLength: 3 }),
        fc.array(pathId(knownNumbers()), { minLength: 3, maxLength: 3 }),
        fc.array(bodyMutation, { maxLength: 2 }),
        fc.boolean(),
        (operationId, queryChanges, ids, mutations, keepRequiredQuery) => {
          const operation = operations.get(operationId) as OperationEntry;
          const path = Object.fromEntries(
            operation.parameters
              .filter((p) => p.in === 'path')
              .map((p, index) => [p.name, ids[index] ?? '1']),
          );
          const query: Record<string, string> = {};
          const queryParameters = operation.parameters.filter((p) => p.in === 'query');
          if (keepRequiredQuery)
            for (const parameter of queryParameters)
              if (parameter.required)
                query[parameter.name] = plausible(spec.dereference(parameter.schema) as Body);
          for (const [index, value] of queryChanges) {
            const parameter = queryParameters[index % Math.max(queryParameters.length, 1)];
            if (parameter) query[parameter.name] = value;
          }
          const write = operation.method !== 'get';
          let body = exampleBody(spec, operation);
          if (write) for (const mutation of mutations) body = mutate(body, mutation);
          const call = admitted(spec, operation, { path, query }, body);
          if (!call) return;
          seen.admitted++;
          const before = write ? snapshot() : '';
          const context = `${operationId} ${JSON.stringify({ ...call, body })?.slice(0, 400)}`;
          const outcome = malls.handle({
            api,
            operationId,
            ...call,
            body,
            mallId: api === 'collection' ? undefined : mall,
          });
          if (outcome.ok) {
            seen.answered++;
            return;
          }
          seen.refused.add(outcome.reason);
          expect(['not-found', 'invalid', 'conflict'], context).toContain(outcome.reason);
          expect(typeof outcome.message, context).toBe('string');
          for (const violation of outcome.violations) {
            expect(['path', 'query', 'body'], context).toContain(violation.location);
            expect(violation.name, context).toMatch(/\S/);
          }
          if (write) expect(snapshot(), context).toBe(before);
        },
      ),
      { numRuns: runs },
    );
    // The generator reaches the sandbox, and both sides of it: answers and refusals.
    expect(seen.admitted).toBeGreaterThan(runs / 8);
    expect(seen.answered).toBeGreaterThan(0);
    if (api === 'admin')
      expect([...seen.refused].some((r) => r === 'not-found' || r === 'invalid')).toBe(true);
  }, 60_000);
});
