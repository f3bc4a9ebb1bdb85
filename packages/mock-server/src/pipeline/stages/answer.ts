// Last stage: the answer. The sandbox answers the operations it keeps state for (unless the caller
// asked for a documented response with `Prefer`); every other request gets the documented response
// the preference names — prepared at build time, or from Prism's engine for one that was not. In
// example mode an id the spec's examples do not know is a 404, never another record.
import { errorEnvelope } from '../../error-envelope.js';
import { unknownExampleId } from '../../example-ids.js';
import type { OperationRuntime } from '../../operation-runtime.js';
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

/** Creates the stage. */
export function answer({ runtime, engine, sandbox }: AnswerSources): Stage {
  return {
    name: 'answer',
    async run(exchange) {
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
            rawQuery: queryRecord(exchange.query),
          }),
        );
      }
      const compiled = await runtime(operation);
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
      if (prepared) return { status: prepared.status, headers: prepared.headers, body: undefined, prepared };
      // Anything not prepared (an unknown example name, say) goes to the engine as asked.
      const result = await (await engine()).handle(
        {
          method: exchange.method,
          path: exchange.path,
          query: queryRecord(exchange.query),
          headers: flattenHeaders(exchange),
          body: exchange.body,
        },
        preference,
      );
      if (result.kind !== 'response')
        return envelopeReply(
          404,
          errorEnvelope(404, `No API exists at ${exchange.method} ${exchange.path}. Check the endpoint URL.`),
        );
      return { status: result.status, headers: result.headers, body: result.body };
    },
  };
}
