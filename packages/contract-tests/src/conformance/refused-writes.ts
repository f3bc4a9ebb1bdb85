// What the runner does around a write it expects to be refused (the auth matrix, the invalid
// bodies): it reads what the write addresses (the `GET` of the same path) before and after, and
// reports any change. Sending the write and judging its answer is the caller's job.
import type { OperationEntry } from '@mall-api/spec-model';
import type { Outgoing } from './conformance-client.js';
import { baselineParts, withIn } from './request-cases.js';
import type { CheckContext } from './request-checks.js';

/** The operation that reads what `operation` writes: the `GET` of its path, if the spec has one. */
export const readBackOf = (context: CheckContext, operation: OperationEntry) =>
  operation.method === 'get'
    ? undefined
    : context.model.operations.find((o) => o.method === 'get' && o.pathTemplate === operation.pathTemplate);

/**
 * Sends `write` (expected to be refused) between two reads of what it addresses and returns its
 * answer with the problems found: the read-back changed, or it could not be read.
 */
export async function sendRefusedWrite(context: CheckContext, write: Outgoing) {
  const read = readBackOf(context, write.operation);
  const readParts = read && withIn(baselineParts(context.model, read), 'path', write.parts.path);
  const snapshot = async () => {
    if (!read || !readParts) return undefined;
    const answer = await context.client.send({ operation: read, parts: readParts });
    return `${answer.status} ${JSON.stringify(answer.body)}`;
  };
  const before = await snapshot();
  const answer = await context.client.send(write);
  const after = await snapshot();
  const problems =
    before === after
      ? []
      : [
          `${read?.operationId} reads ${after?.slice(0, 200)} after the refused ${write.operation.operationId}, not ${before?.slice(0, 200)} as before it`,
        ];
  return { answer, problems };
}
