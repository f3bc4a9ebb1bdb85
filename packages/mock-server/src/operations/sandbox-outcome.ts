// How the mocks say the sandbox's domain outcomes (`@mall-api/sandbox/protocol`) in HTTP: the
// operation's documented success status (its 207, with each item's status under `results`, for a
// write partly applied), or the API's error envelope with a status by refusal reason. Not here: when
// the sandbox is asked (the answer stage).
import type { ItemOutcome, Refusal, RefusalReason, SandboxOutcome } from '@mall-api/sandbox/protocol';
import { errorEnvelope } from '../http/error-envelope.js';
import { envelopeReply, type Reply } from '../pipeline/reply.js';
import type { PreparedResponse } from '../responses/prepared-responses.js';

/** The HTTP status of each refusal reason. */
const refusalStatuses: Readonly<Record<RefusalReason, number>> = {
  forbidden: 403,
  'not-found': 404,
  invalid: 422,
  conflict: 409,
  unavailable: 503,
};

/** The status of a refusal for `reason`. */
export const refusalStatus = (reason: RefusalReason): number => refusalStatuses[reason];

/** HTTP's Multi-Status: the documented answer of a write applied to some of its items. */
const multiStatus = '207';

/**
 * The documented success status of an operation: its 207 for a partly applied write, else its one
 * other 2xx response. Throws when the spec documents none (the sandbox answers an operation whose
 * spec cannot say that outcome: a mistake in the spec or the sandbox, not in the request).
 * @param responseCodes the operation's documented response codes, as written (`200`, `4XX`, …)
 */
export function successStatus(responseCodes: readonly string[], partial: boolean): number {
  const successes = responseCodes.filter((code) => /^2\d\d$/.test(code));
  const status = partial
    ? successes.find((code) => code === multiStatus)
    : successes.find((code) => code !== multiStatus);
  if (status === undefined)
    throw new Error(
      `the operation documents no ${partial ? 'Multi-Status (207)' : 'success'} response for a sandbox outcome (documented: ${responseCodes.join(', ')})`,
    );
  return Number(status);
}

/** The reply to a refusal: the API's error envelope, with the violations naming each field. */
export function refusalReply(refusal: Refusal): Reply {
  const status = refusalStatus(refusal.reason);
  const moreInfo = refusal.violations.length > 0 ? { violations: refusal.violations } : {};
  return envelopeReply(status, errorEnvelope(status, refusal.message, moreInfo));
}

/** The per-item statuses of a partly applied write, in request order (the `results` of its 207 body). */
export function itemResults(items: readonly ItemOutcome[], appliedStatus: number) {
  return items.map(({ index, product_no, refused }) =>
    refused
      ? { index, product_no, status: refusalStatus(refused.reason), message: refused.message }
      : { index, product_no, status: appliedStatus },
  );
}

/** The prepared response of each answer the sandbox keeps, so its bytes are encoded once. */
const keptReplies = new WeakMap<SandboxOutcome, PreparedResponse>();

/**
 * The reply to a sandbox outcome of an operation.
 * @param responseCodes the operation's documented response codes, as written
 */
export function outcomeReply(outcome: SandboxOutcome, responseCodes: readonly string[]): Reply {
  if (!outcome.ok) return refusalReply(outcome);
  const applied = successStatus(responseCodes, false);
  if (outcome.kind === 'partly-applied') {
    const body = { ...(outcome.body as object), results: itemResults(outcome.items, applied) };
    return { status: successStatus(responseCodes, true), headers: {}, body };
  }
  if (outcome.kind !== 'found' || outcome.json === undefined)
    return { status: applied, headers: {}, body: outcome.body };
  let prepared = keptReplies.get(outcome);
  if (!prepared) {
    prepared = { status: applied, headers: {}, contentType: 'application/json', payload: outcome.json };
    keptReplies.set(outcome, prepared);
  }
  return { status: applied, headers: {}, body: outcome.body, prepared };
}
