// Last stage: the answer. The sandbox answers the operations it keeps state for (unless a documented
// response was asked for), its outcome said in HTTP by sandbox-outcome.ts; every other request gets
// the documented response the preference names, prepared ahead (a 404 envelope when none is
// documented; Prism is never asked here). In example mode an id the spec's examples do not know is
// a 404, never another record.

import type { SandboxGateway } from '@mall-api/sandbox/protocol';
import { errorEnvelope, type Violation } from '../http/error-envelope.js';
import type { CompiledOperation, OperationRuntime } from '../operations/operation-runtime.js';
import { outcomeReply } from '../operations/sandbox-outcome.js';
import type { Identity, Validated } from '../pipeline/phases.js';
import { envelopeReply, type Reply } from '../pipeline/reply.js';
import type { Final } from '../pipeline/stage.js';
import { unknownExampleId } from '../responses/example-ids.js';

/** What the answer needs: a validated request whose caller and mall are known. */
export type Answerable = Validated & Identity;

/** What the answer stage answers from. */
export interface AnswerSources {
  readonly runtime: OperationRuntime;
  readonly sandbox?: SandboxGateway;
}

/** The 404 for a preference that names no documented response of the operation. */
function undocumentedPreference({ preference, route }: Answerable): Reply {
  const asked = [
    ...(preference.code !== undefined ? [`code=${preference.code}`] : []),
    ...(preference.example !== undefined ? [`example=${preference.example}`] : []),
  ].join(', ');
  const { operationId } = route.operation;
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
function fromExamples(phase: Answerable, compiled: CompiledOperation): Reply {
  const { preference, route, mode } = phase;
  const unknown = mode.documented ? undefined : unknownExampleId(compiled.knownIds, route.pathParameters);
  if (unknown !== undefined) {
    return envelopeReply(
      404,
      errorEnvelope(404, `No record with ${unknown} ${route.pathParameters[unknown]} exists.`, {
        hint: 'The example-only mock knows the ids of the spec examples; run the stateful sandbox for your own data.',
      }),
    );
  }
  const prepared = compiled.prepared(preference);
  if (!prepared) return undocumentedPreference(phase);
  return { status: prepared.status, headers: prepared.headers, body: undefined, prepared };
}

/** Creates the stage. */
export function answer({ runtime, sandbox }: AnswerSources): Final<Answerable> {
  /** The answer of an operation not compiled yet. */
  const answerFromSpec = async (phase: Answerable): Promise<Reply> =>
    fromExamples(phase, await runtime(phase.route.operation));

  return {
    name: 'answer',
    run(phase) {
      const { route, api, caller } = phase;
      const { operation } = route;
      if (sandbox && !phase.mode.documented && sandbox.handles(api.name, operation.operationId)) {
        const result = sandbox.handle({
          api: api.name,
          operationId: operation.operationId,
          path: { ...route.pathParameters, ...phase.parameters.path },
          query: phase.parameters.query,
          body: phase.body,
          // The mall of the caller's token; the collection API's Basic clients have none.
          mallId: caller.ok && caller.principal.mallId !== undefined ? phase.mallId : undefined,
        });
        return result.then((outcome) => outcomeReply(outcome, operation.responseCodes));
      }
      const compiled = runtime.compiled(operation);
      return compiled ? fromExamples(phase, compiled) : answerFromSpec(phase);
    },
  };
}
