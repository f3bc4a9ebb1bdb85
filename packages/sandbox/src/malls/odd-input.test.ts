// Odd input reaching the sandbox, generated: for every operation of the three APIs the sandbox
// answers, calls built from the spec's own example request and then broken at random (path ids
// that do not exist or are not numbers, query values of the wrong type or out of range, body fields
// replaced by any JSON value or removed, or the body not an object at all), converted and checked
// as the front layer does with the spec model (`parameterValue`, the schemas, the body rules). What
// the front layer would refuse never reaches the sandbox; whatever does is answered as a value,
// never thrown: a success or a refusal with a reason and the fields named (another mall's
// statistics are refused as forbidden), and a refused write
// leaves every table of the mall exactly as it was. (The HTTP side — never a 5xx, always the error
// envelope — is mock-server's sandbox-mode-bad-input test.)
import {
  type ApiName,
  type ApiSpecs,
  bodyRuleBreaches,
  bodyRulesOf,
  type OperationEntry,
  type OperationParameter,
  parameterValue,
  type SpecModel,
} from '@mall-api/spec-model';
import { oddRequest, plausibleText } from '@mall-api/test-support/odd-requests';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxMalls } from '../index.js';
import { type Body, closeTestMalls, openTestMalls, shippedSpecs } from '../testing/test-malls.js';

/**
 * The one mall every admin and analytics call goes to: the mall a generated analytics call asks for
 * (`mall_id`), so a plausible call reads its own mall and an odd one another's (refused).
 */
const mall = plausibleText;
let malls: SandboxMalls;
let specs: ApiSpecs;

beforeAll(async () => {
  specs = await shippedSpecs();
  malls = await openTestMalls({ newMall: { seed: 4 } });
  await malls.reset(mall);
});
afterAll(closeTestMalls);

/** The mall's snapshot (every record of every table) as one string: equal strings mean nothing changed. */
const snapshot = async () => JSON.stringify(await malls.snapshot(mall));
/** The numbers the mall issued: its categories' and products'. */
const knownNumbers = async () => {
  const tables = await (await malls.snapshot(mall))?.tables;
  return [
    ...(tables?.category ?? []).map(([, record]) => (record as Body).category_no),
    ...(tables?.product ?? []).map(([, record]) => (record as Body).record?.product_no),
  ].filter((n): n is number => typeof n === 'number');
};

/**
 * The front layer's check of a call, by the spec model: the parameters' texts converted to their
 * schema types and validated, the body validated and its body rules kept. Undefined when it refuses.
 */
function admitted(
  spec: SpecModel,
  operation: OperationEntry,
  texts: {
    readonly path: Readonly<Record<string, string>>;
    readonly query: Readonly<Record<string, string>>;
  },
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
    const operations = spec.operations.filter((operation) => malls.handles(api, operation.operationId));
    expect(operations.length).toBeGreaterThan(0);
    const seen = { answered: 0, refused: new Set<string>(), admitted: 0 };

    await fc.assert(
      fc.asyncProperty(oddRequest(spec, operations, await knownNumbers()), async (request) => {
        const { operation, body } = request;
        const { operationId } = operation;
        const write = operation.method !== 'get';
        const call = admitted(spec, operation, request, body);
        if (!call) return;
        seen.admitted++;
        const before = write ? await snapshot() : '';
        const context = `${operationId} ${JSON.stringify({ ...call, body })?.slice(0, 400)}`;
        const outcome = await malls.handle({
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
        expect(['forbidden', 'not-found', 'invalid', 'conflict'], context).toContain(outcome.reason);
        expect(typeof outcome.message, context).toBe('string');
        for (const violation of outcome.violations) {
          expect(['path', 'query', 'body'], context).toContain(violation.location);
          expect(violation.name, context).toMatch(/\S/);
        }
        if (write) expect(await snapshot(), context).toBe(before);
      }),
      { numRuns: runs },
    );
    // The generator reaches the sandbox, and both sides of it: answers and refusals.
    expect(seen.admitted).toBeGreaterThanOrEqual(20);
    expect(seen.answered).toBeGreaterThan(0);
    if (api === 'admin')
      expect([...seen.refused].some((r) => r === 'not-found' || r === 'invalid')).toBe(true);
  }, 60_000);
});
