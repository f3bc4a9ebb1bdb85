// Stage: the request's parameters and body against the operation: path ids repeated in the query or
// body are reconciled first, then the schemas, the cross-parameter rules and the body rules apply;
// every violation is answered at once with 422, naming the rules broken (`refusedBy`, for coverage).
// A request for a documented error skips the checks, so QA can always get one. The outcome for a
// request without a body depends only on its operation, URL and header parameters, so it is kept per
// operation and URL (frozen, so no later stage changes what the next request gets), at most 256 per
// operation and only for keys up to 2 kB.
import { maxRefusedBy } from '@mall-api/mall-state';
import type { OperationEntry } from '@mall-api/spec-model';
import type { Violation } from '../http/error-envelope.js';
import type { CompiledOperation, OperationRuntime } from '../operations/operation-runtime.js';
import { type Checked, headerValue, queryRecord, type ReadBody, type Routed } from '../pipeline/phases.js';
import { type Reply, violationsReply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';
import { reconcileRepeatedPathIds } from '../validation/repeated-path-ids.js';
import { requestRuleNames } from '../validation/request-rules.js';

/** Outcomes of body-less requests kept per operation; past this the oldest is dropped. */
const keptChecksPerOperation = 256;
/** The longest key (URL and header parameters) whose outcome is kept: longer ones are checked each time. */
const keptKeyLength = 2_048;

/** What the checks of one request found: what passes on, every rule it breaks, and their names. */
interface Checks {
  readonly passed: Checked;
  readonly violations: readonly Violation[];
  readonly refusedBy: readonly string[];
}

/** Creates the stage over the API's compiled operations. */
export function validateRequest(runtime: OperationRuntime): Step<Routed & ReadBody, Checked> {
  const kept = new Map<OperationEntry, Map<string, Checks>>();
  const run = (phase: Routed & ReadBody, compiled: CompiledOperation): Reply | Checked => {
    const { passed, violations, refusedBy } =
      phase.body === undefined ? keptChecks(kept, phase, compiled) : checks(phase, compiled);
    if (phase.mode.documentedError || violations.length === 0) return passed;
    return { ...violationsReply(violations), refusedBy };
  };
  return {
    name: 'validate-request',
    run(phase) {
      const { operation } = phase.route;
      // Compiled on the operation's first request; every later one stays synchronous.
      const compiled = runtime.compiled(operation);
      return compiled ? run(phase, compiled) : runtime(operation).then((ready) => run(phase, ready));
    },
  };
}

/** The checks of a body-less request, worked out on its URL's (and header parameters') first use. */
function keptChecks(
  kept: Map<OperationEntry, Map<string, Checks>>,
  phase: Routed & ReadBody,
  compiled: CompiledOperation,
): Checks {
  const { operation } = phase.route;
  let byRequest = kept.get(operation);
  if (!byRequest) {
    byRequest = new Map();
    kept.set(operation, byRequest);
  }
  let key = phase.request.url ?? '';
  for (const parameter of operation.parameters)
    if (parameter.in === 'header')
      key += `\n${parameter.name}: ${headerValue(phase.request.headers[parameter.name.toLowerCase()]) ?? ''}`;
  if (key.length > keptKeyLength) return checks(phase, compiled);
  let found = byRequest.get(key);
  if (!found) {
    found = deepFreeze(checks(phase, compiled));
    if (byRequest.size >= keptChecksPerOperation) byRequest.delete(byRequest.keys().next().value as string);
    byRequest.set(key, found);
  }
  return found;
}

/** The checks of one request against its compiled operation. */
function checks(phase: Routed & ReadBody, compiled: CompiledOperation): Checks {
  const { operation, pathParameters } = phase.route;
  const reconciled = reconcileRepeatedPathIds(operation, pathParameters, phase.query, phase.body);
  const query = queryRecord(reconciled.query);
  const checked = compiled.validate({
    pathParameters,
    query,
    headers: phase.request.headers,
    body: reconciled.body,
  });
  const schema = [...reconciled.violations, ...checked.violations];
  const broken = new Set<string>(schema.length > 0 ? [requestRuleNames.schema] : []);
  const hear = (rule: string) => void broken.add(rule);
  const violations = [
    ...schema,
    ...compiled.crossParameters(query, hear),
    // A documented error skips the checks: the body's rules are not even run.
    ...(reconciled.body === undefined || phase.mode.documentedError
      ? []
      : compiled.bodyRules(reconciled.body, hear)),
  ];
  return {
    passed: { body: reconciled.body, parameters: checked.parameters },
    violations,
    refusedBy: [...broken].slice(0, maxRefusedBy),
  };
}

/** Freezes a value and everything it holds. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
