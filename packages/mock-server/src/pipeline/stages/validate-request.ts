// Stage: the request's parameters and body against the operation — path ids a client repeats in
// the query or body are reconciled with the path first, then the parameters are converted and
// validated by their schemas, the cross-parameter rules and the body rules are applied, and every
// violation is answered at once with 422. A request for a documented error (`Prefer: code=4xx`)
// skips the checks, so QA can always get one. The converted parameters are kept for the answer.
import { bodyRuleViolations } from '../../body-rules.js';
import type { OperationRuntime } from '../../operation-runtime.js';
import { reconcileRepeatedPathIds } from '../../repeated-path-ids.js';
import { queryRecord } from '../exchange.js';
import { violationsReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** Creates the stage over the API's compiled operations. */
export function validateRequest(runtime: OperationRuntime): Stage {
  return {
    name: 'validate-request',
    async run(exchange) {
      const route = exchange.route;
      if (!route) return undefined;
      const { operation, pathParameters } = route;
      const reconciled = reconcileRepeatedPathIds(operation, pathParameters, exchange.query, exchange.body);
      const query = queryRecord(reconciled.query);
      const compiled = await runtime(operation);
      const checked = compiled.validate({
        pathParameters,
        query,
        headers: exchange.request.headers,
        body: reconciled.body,
      });
      exchange.parameters = checked.parameters;
      exchange.body = reconciled.body;
      const code = exchange.preference.code;
      if (code !== undefined && code >= 400) return undefined;
      const violations = [
        ...reconciled.violations,
        ...checked.violations,
        ...compiled.crossParameters(query),
        ...(reconciled.body === undefined ? [] : bodyRuleViolations(operation.operationId, reconciled.body)),
      ];
      return violations.length > 0 ? violationsReply(violations) : undefined;
    },
  };
}
