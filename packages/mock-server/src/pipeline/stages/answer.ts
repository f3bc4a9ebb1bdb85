// Last stage: the answer. The sandbox answers the operations it keeps state for (unless the caller
// asked for a documented response with `Prefer`); every other request gets the documented response
// the preference names — prepared at build time, or from Prism's engine for one that was not. In
// example mode an id the spec's examples do not know is a 404, never another record.

import type { Route } from '@mall-api/spec-model';
import { errorEnvelope } from '../../error-envelope.js';
import { unknownExampleId } from '../../example-ids.js';
import type { CompiledOperation, OperationRuntime } from '../../operation-runtime.js';
import type { PrismEngine } from '../../prism-engine.js';
import type { SandboxGateway, SandboxResult } from '../../sandbox-gateway.js';
import { type Exchange, queryRecord } from '../exchange.js';
import { envelopeReply, type Reply } from '../reply.js';
import type { Stage } from '../stage.js';

/** What the answer stage answers from. */
export interface AnswerSources {
  readonly runtime: OperationRuntime;
  /** Prism's engine, created on first need. */
  readonly engine: () => Promise<PrismEngine>;
  readonly sandbox?: SandboxGateway;
}

function sandboxReply(result: SandboxResult): Reply {
  if (result.kind === 'answer') return { status: result.status, headers: {}, body: result.body };
  const moreInfo = result.violations.length > 0 ? { violations: result.violations } : {};
  return envelopeReply(result.status, errorEnvelope(result.status, result.message, moreInfo));
}

function flattenHeaders(exchange: Exchange): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The documented answer a compiled operation has ready (404 for an id the examples lack), if any. */
function fromExamples(exchange: Exchange, compiled: CompiledOperation): Reply | undefined {
  const { preference, route } = exchange;
  if (!route) return undefined;
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
  return prepared && { status: prepared.status, headers: prepared.headers, body: undefined, prepared };
}

/** Creates the stage. */
export function answer({ runtime, engine, sandbox }: AnswerSources): Stage {
  /** The answer of an operation not compiled yet, or of a response that was not prepared. */
  const answerFromSpec = async (exchange: Exchange): Promise<Reply> => {
    const ready = fromExamples(exchange, await runtime((exchange.route as Route).operation));
    if (ready) return ready;
    // Anything not prepared (an unknown example name, say) goes to the engine as asked.
    const result = await (await engine()).handle(
      {
        method: exchange.method,
        path: exchange.path,
        query: queryRecord(exchange.query),
        headers: flattenHeaders(exchange),
        body: exchange.body,
      },
      exchange.preference,
    );
    if (result.kind !== 'response')
      return envelopeReply(
        404,
        errorEnvelope(404, `No API exists at ${exchange.method} ${exchange.path}. Check the endpoint URL.`),
      );
    return { status: result.status, headers: result.headers, body: result.body };
  };

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
        return sandboxReply(
          sandbox.handle({
            api: exchange.api.name,
            operationId: operation.operationId,
            path: { ...route.pathParameters, ...parameters.path },
            query: parameters.query,
            body: exchange.body,
            mallId: exchange.caller?.ok ? exchange.caller.principal.mallId : undefined,
          }),
        );
      }
      const compiled = runtime.compiled(operation);
      return (compiled && fromExamples(exchange, compiled)) || answerFromSpec(exchange);
    },
  };
}
