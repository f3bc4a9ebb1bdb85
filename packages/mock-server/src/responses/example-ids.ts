// The ids the example-only mock knows: for each path parameter of an operation, the values the spec
// gives it (the parameter's examples) and the values its documented responses carry under the same
// name. An id outside that set does not exist in example mode, so the mock answers 404 instead of
// dressing another record up as the one asked for.
import type { Json, OperationEntry, SpecModel } from '@mall-api/spec-model';

/** Known ids of each path parameter of one operation. */
export type KnownIds = ReadonlyMap<string, ReadonlySet<string>>;

function collectValues(node: Json | undefined, name: string, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectValues(item, name, into);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === name && (typeof value === 'string' || typeof value === 'number')) into.add(String(value));
      else collectValues(value, name, into);
    }
  }
}

function exampleValues(spec: SpecModel, node: Json | undefined): Json[] {
  const resolved = spec.resolveOptional(node);
  if (!resolved) return [];
  const named = spec.resolveOptional(resolved.examples);
  return [
    ...(resolved.example === undefined ? [] : [resolved.example]),
    ...Object.values(named ?? {}).flatMap((example) => {
      const value = spec.resolveOptional(example)?.value;
      return value === undefined ? [] : [value];
    }),
  ];
}

/** The ids the spec's examples give an operation's path parameters. */
export function knownExampleIds(spec: SpecModel, operation: OperationEntry): KnownIds {
  const known = new Map<string, Set<string>>();
  const responses = Object.entries(operation.responses)
    .filter(([status]) => /^2/.test(status))
    .flatMap(([, response]) => {
      const content = spec.resolveOptional(spec.resolveOptional(response)?.content);
      return Object.values(content ?? {}).flatMap((media) => exampleValues(spec, media));
    });
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const values = new Set<string>();
    for (const value of [
      ...exampleValues(spec, parameter.definition),
      ...exampleValues(spec, parameter.schema),
    ]) {
      collectValues({ [parameter.name]: value }, parameter.name, values);
    }
    for (const response of responses) collectValues(response, parameter.name, values);
    known.set(parameter.name, values);
  }
  return known;
}

/** The first path parameter whose value the examples do not know, if any. */
export function unknownExampleId(
  known: KnownIds,
  pathParameters: Readonly<Record<string, string>>,
): string | undefined {
  for (const [name, values] of known) {
    const value = pathParameters[name];
    if (value !== undefined && values.size > 0 && !values.has(value) && !values.has(String(Number(value))))
      return name;
  }
  return undefined;
}
