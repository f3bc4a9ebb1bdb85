// Last stage: the answer. The sandbox answers the operations it keeps state for (unless the caller
// asked for a documented response with `Prefer`), at once or, kept in PostgreSQL, later, with a
// domain outcome said in HTTP by sandbox-outcome.ts; every other request gets the documented response
// the preference names, from the operation's prepared responses (made at build time, or when the
// operation was compiled). A preference naming no documented response is a 404 envelope; Prism is
// never asked here. In example mode an id the spec's examples do not know is a 404, never another
// record.

import type { SandboxGateway, SandboxOutcome } from '@mall-api/sandbox/protocol';
import type { Route } from '@mall-api/spec-model';
import { errorEnvelope, type Violation } from '../../error-envelope.js';
import { unknownExampleId } from '../../example-ids.js';
import type { CompiledOperation, OperationRuntime } from '../../operation-runtime.js';
import { outcomeReply } from '../../sandbox-outcome.js';
import type { Exchange } from '../exchange.js';
import { envelopeReply, type Reply } from '../reply.js';
import type { Stage } from '../stage.js';

/** What the answer stage answers from. */
export interface AnswerSources {
  readonly runtime: OperationRuntime;
  readonly sandbox?: SandboxGateway;
}

/** The 404 for a preference that names no documented response of the operation. */
function undocumentedPreference({ preference, route }: Exchange): Reply {
  const asked = [
    ...(preference.code !== undefined ? [`code=${preference.code}`] : []),
    ...(preference.example !== undefined ? [`example=${preference.example}`] : []),
  ].join(', ');
  const operationId = route?.operation.operationId ?? 'this operation';
  const violation: Violation = {
    location: 'header',
    name: 'Prefer',
    message: `names no documented response of ${operationId} (${asked})`,
  };
  return envelopeReply(
    404,
    errorEnvelope(404, `${operationId} documents no response for ${asked}.`, { violations: [violation] }),
  );
}

/** The documented answer a compiled operation has ready (404 for an id the examples lack). */
function fromExamples(exchange: Exchange, compiled: CompiledOperation): Reply {
  const { preference, route } = exchange;
  if (!route) throw new Error('the answer stage needs a routed request');
  const asked = preference.code !== undefined || preference.example !== undefined;
  const unknown = asked ? undefined : unknownExampleId(compiled.knownIds, route.pathParameters);
  if (unknown !== undefined) {
    return envelopeReply(
      404,
      errorEnvelope(404, `No record with ${unknown} ${route.pathParameters[unknown]} exists.`, {
        hint: 'The example-only mock knows the ids of the spec examples; run the stateful sandbox for your own data.',
      }),
    );
  }
  const prepared = compiled.prepared(preference);
  if (!prepared) return undocumentedPreference(exchange);
  return { status: prepared.status, headers: prepared.headers, body: undefined, prepared };
}

/** Creates the stage. */
export function answer({ runtime, sandbox }: AnswerSources): Stage {
  /** The answer of an operation not compiled yet. */
  const answerFromSpec = async (exchange: Exchange): Promise<Reply> =>
    fromExamples(exchange, await runtime((exchange.route as Route).operation));

  return {
    name: 'answer',
    run(exchange) {
      const route = exchange.route;
      if (!route) throw new Error('the answer stage needs a routed request');
      const { operation } = route;
      const { preference } = exchange;
      const asked = preference.code !== undefined || preference.example !== undefined;
      if (sandbox && !asked && sandbox.handles(exchange.api.name, operation.operationId)) {
        const parameters = exchange.parameters ?? { path: {}, query: {}, header: {} };
        const result = sandbox.handle({
          api: exchange.api.name,
          operationId: operation.operationId,
          path: { ...route.pathParameters, ...parameters.path },
          query: parameters.query,
          body: exchange.body,
          mallId: exchange.caller?.ok ? exchange.caller.principal.mallId : undefined,
        });
        const reply = (outcome: SandboxOutcome) => outcomeReply(outcome, operation.responseCodes);
        return result instanceof Promise ? result.then(reply) : reply(result);
      }
      const compiled = runtime.compiled(operation);
      return compiled ? fromExamples(exchange, compiled) : answerFromSpec(exchange);
    },
  };
}
