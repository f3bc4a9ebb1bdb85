// Rules a JSON Schema cannot express about one parameter alone, read from the spec so each API
// states them once: `x-mutually-exclusive` pairs on the operation, `*_min`/`*_max` and
// `*_start_date`/`*_end_date` pairs that must not cross, `x-not-before: <other>` on a date
// parameter, and `x-max-values-per-key` on a `key:value` comma list. Each broken rule becomes a
// violation naming the parameter.
import type { Violation } from './error-envelope.js';
import type { OperationEntry } from './spec-document.js';

type Query = Readonly<Record<string, string | string[]>>;

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

function exclusionViolations(operation: OperationEntry, query: Query): Violation[] {
  return operation.mutuallyExclusive
    .filter(([a, b]) => query[a] !== undefined && query[b] !== undefined)
    .map(([a, b]) => ({ location: 'query', name: b, message: `cannot be combined with ${a}` }));
}

const rangeSuffixes: readonly (readonly [string, string, (raw: string) => number])[] = [
  ['_min', '_max', Number],
  ['_start_date', '_end_date', (raw) => Date.parse(raw)],
];

function rangeViolations(operation: OperationEntry, query: Query): Violation[] {
  const violations: Violation[] = [];
  for (const { name } of operation.parameters) {
    for (const [low, high, parse] of rangeSuffixes) {
      if (!name.endsWith(low)) continue;
      const upperName = `${name.slice(0, -low.length)}${high}`;
      const lower = first(query[name]);
      const upper = first(query[upperName]);
      if (lower === undefined || upper === undefined) continue;
      const [l, u] = [parse(lower), parse(upper)];
      if (Number.isFinite(l) && Number.isFinite(u) && l > u) {
        violations.push({ location: 'query', name: upperName, message: `must not be less than ${name}` });
      }
    }
  }
  return violations;
}

function notBeforeViolations(operation: OperationEntry, query: Query): Violation[] {
  const violations: Violation[] = [];
  for (const parameter of operation.parameters) {
    const other = parameter.extensions['x-not-before'];
    const value = first(query[parameter.name]);
    const earlier = typeof other === 'string' ? first(query[other]) : undefined;
    if (typeof other !== 'string' || value === undefined || earlier === undefined) continue;
    const [v, e] = [Date.parse(value), Date.parse(earlier)];
    if (Number.isFinite(v) && Number.isFinite(e) && v < e) {
      violations.push({ location: 'query', name: parameter.name, message: `must not be less than ${other}` });
    }
  }
  return violations;
}

function perKeyViolations(operation: OperationEntry, query: Query): Violation[] {
  const violations: Violation[] = [];
  for (const parameter of operation.parameters) {
    const max = parameter.extensions['x-max-values-per-key'];
    const raw = first(query[parameter.name]);
    if (typeof max !== 'number' || raw === undefined) continue;
    const counts = new Map<string, number>();
    for (const item of raw.split(',')) {
      const key = item.split(':')[0] ?? '';
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, count] of counts) {
      if (count > max) {
        violations.push({
          location: 'query',
          name: parameter.name,
          message: `has ${count} values for tag key ${key}; at most ${max} are allowed`,
        });
      }
    }
  }
  return violations;
}

/** All cross-parameter violations of a request to `operation`. */
export function crossParameterViolations(operation: OperationEntry, query: Query): Violation[] {
  return [
    ...exclusionViolations(operation, query),
    ...rangeViolations(operation, query),
    ...notBeforeViolations(operation, query),
    ...perKeyViolations(operation, query),
  ];
}
