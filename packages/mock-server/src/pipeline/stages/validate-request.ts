// Stage: the request's parameters and body against the operation — path ids a client repeats in
// the query or body are reconciled with the path first, then the parameters are converted and
// validated by their schemas, the cross-parameter rules and the body rules (of the spec the API was
// compiled from) are applied, and every violation is answered at once with 422. A request for a
// documented error (the mode says so) skips the checks, so QA can always get one. It passes on the
// converted parameters and the reconciled body for the answer.
import type { CompiledOperation, OperationRuntime } from '../../operation-runtime.js';
import { reconcileRepeatedPathIds } from '../../repeated-path-ids.js';
import { type Checked, queryRecord, type ReadBody, type Routed } from '../phases.js';
import { type Reply, violationsReply } from '../reply.js';
import type { Step } from '../stage.js';

/** Creates the stage over the API's compiled operations. */
export function validateRequest(runtime: OperationRuntime): Step<Routed & ReadBody, Checked> {
  return {
    name: 'validate-request',
    run(phase) {
      const { operation } = phase.route;
      // Compiled on the operation's first request; every later one stays synchronous.
      const compiled = runtime.compiled(operation);
      return compiled ? check(phase, compiled) : runtime(operation).then((ready) => check(phase, ready));
    },
  };
}

/** The checks of one request against its compiled operation. */
function check(phase: Routed & ReadBody, compiled: CompiledOperation): Reply | Checked {
  const { operation, pathParameters } = phase.route;
  const reconciled = reconcileRepeatedPathIds(operation, pathParameters, phase.query, phase.body);
  const query = queryRecord(reconciled.query);
  const checked = compiled.validate({
    pathParameters,
    query,
    headers: phase.request.headers,
    body: reconciled.body,
  });
  const passed = { body: reconciled.body, parameters: checked.parameters };
  if (phase.mode.documentedError) return passed;
  const violations = [
    ...reconciled.violations,
    ...checked.violations,
    ...compiled.crossParameters(query),
    ...(reconciled.body === undefined ? [] : compiled.bodyRules(reconciled.body)),
  ];
  return violations.length > 0 ? violationsReply(violations) : passed;
}
