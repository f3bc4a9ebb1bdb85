// Test support: odd requests for the operations of a spec, generated (fast-check), shared by the
// bad-input tests of the mocks (over HTTP) and of the sandbox (at its surface). A request starts
// from the operation's own example and is broken at random: path ids the sandbox issued, never
// issued or not numbers; query texts of the wrong type or out of range (the required ones given a
// plausible text first, or not); a write's JSON body with a field replaced by any JSON value or
// removed, or replaced whole. Parameters stay texts, as a request carries them. Not for production
// use; tests import it as `@mall-api/test-support/odd-requests`.
import type { Json, OperationEntry, SpecModel } from '@mall-api/spec-model';
import fc from 'fast-check';

// biome-ignore lint/suspicious/noExplicitAny: example documents are read loosely
type Loose = Record<string, any>;

/** The first example of an operation's JSON request body, if it documents one. */
function exampleBody(spec: SpecModel, operation: OperationEntry): unknown {
  const raw = (spec.document as Loose).paths[operation.pathTemplate][operation.method];
  if (!raw.requestBody) return undefined;
  const content = (spec.resolve(raw.requestBody) as Loose).content?.['application/json'] as Loose | undefined;
  const first = Object.values(content?.examples ?? {})[0] as Json | undefined;
  return first === undefined ? undefined : structuredClone(spec.resolve(first).value);
}

/** A text a parameter of this (dereferenced) schema accepts: its first enum value, its minimum, a date, … */
/** The text a plausible string parameter takes (an analytics `mall_id`, so the mall asked for). */
export const plausibleText = 'sandbox';

function plausible(schema: Loose): string {
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'array') return plausible(schema.items ?? {});
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.format === 'date') return '2026-11-01';
  return plausibleText;
}

/** Texts that break parameters: wrong types, out of range, empty, huge, odd characters. */
const badValue = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '-1',
    '2147483648',
    '99999999999999999999',
    'abc',
    'T',
    'X',
    '1,2,,3',
    '%00',
    '🙂',
  ),
  fc.integer().map(String),
  fc.string({ maxLength: 12 }),
);

/** A path id: a number the sandbox issued (of `known`), one it never did, or no number at all. */
const pathId = (known: readonly number[]) =>
  fc.oneof(
    fc.constantFrom(...(known.length > 0 ? known : [1])).map(String),
    fc.constantFrom('2147483647', '0', '-5', 'abc', '1.5', '1e3'),
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
/** One change `bodyMutation` makes. */
type BodyMutation = typeof bodyMutation extends fc.Arbitrary<infer T> ? T : never;

/** A copy of `body` with `mutation` applied (to its `request` object when it has one). */
function mutate(body: unknown, mutation: BodyMutation): unknown {
  if (mutation.kind === 'replace') return mutation.value;
  const copy = structuredClone(body) as Loose;
  const target = copy && typeof copy.request === 'object' && copy.request !== null ? copy.request : copy;
  if (!target || typeof target !== 'object') return copy;
  const keys = Object.keys(target);
  if (keys.length === 0) return copy;
  const key = keys[mutation.index % keys.length] as string;
  if (mutation.kind === 'remove') delete target[key];
  else target[key] = mutation.value;
  return copy;
}

/** A generated request of an operation: its path and query parameters as texts, and its body. */
export interface OddRequest {
  readonly operation: OperationEntry;
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Odd requests of `operations` (of `spec`); `known` are the record numbers that exist. */
export function oddRequest(
  spec: SpecModel,
  operations: readonly OperationEntry[],
  known: readonly number[],
): fc.Arbitrary<OddRequest> {
  return fc
    .tuple(
      fc.constantFrom(...operations),
      fc.array(fc.tuple(fc.nat(), badValue), { maxLength: 3 }),
      fc.array(pathId(known), { minLength: 3, maxLength: 3 }),
      fc.array(bodyMutation, { maxLength: 2 }),
      fc.boolean(),
    )
    .map(([operation, queryChanges, ids, mutations, keepRequiredQuery]) => {
      const names = [...operation.pathTemplate.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name as string);
      const path = Object.fromEntries(names.map((name, index) => [name, ids[index] ?? '1']));
      const query: Record<string, string> = {};
      const queryParameters = operation.parameters.filter((p) => p.in === 'query');
      if (keepRequiredQuery)
        for (const parameter of queryParameters)
          if (parameter.required)
            query[parameter.name] = plausible(spec.dereference(parameter.schema) as Loose);
      for (const [index, value] of queryChanges) {
        const parameter = queryParameters[index % Math.max(queryParameters.length, 1)];
        if (parameter) query[parameter.name] = value;
      }
      let body = exampleBody(spec, operation);
      if (operation.method !== 'get') for (const mutation of mutations) body = mutate(body, mutation);
      return { operation, path, query, body };
    });
}
