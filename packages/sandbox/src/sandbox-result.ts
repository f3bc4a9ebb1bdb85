// What the sandbox answers, as values: an `answer` (a status and the documented body: 200, 201,
// or 207 with per-item statuses for a partial add) or a `refusal` (404, 409 or 422 with a message
// and the violations naming each offending field; 503 when the store keeping the mall cannot be
// reached). Nothing the sandbox decides crosses its surface as an exception; the front layer that
// serves HTTP turns a refusal into the API's error envelope.
import type { ApiName } from '@mall-api/spec-model';

/** Where a violated rule points. */
export type ViolationLocation = 'path' | 'query' | 'body';

/** One violated rule: the parameter or body field and what is wrong with it. */
export interface Violation {
  readonly location: ViolationLocation;
  readonly name: string;
  readonly message: string;
}

/** An answer of the sandbox. */
export interface SandboxAnswer {
  readonly kind: 'answer';
  readonly status: number;
  readonly body: unknown;
  /**
   * The body as JSON text, for an answer the sandbox keeps and gives again unchanged (analytics
   * reports): serialized once, then sent as is.
   */
  readonly json?: string;
}

/** A refused call: nothing it would have written was kept. */
export interface SandboxRefusal {
  readonly kind: 'refusal';
  /** 503: the store that keeps the mall (PostgreSQL) could not be reached. */
  readonly status: 404 | 409 | 422 | 503;
  readonly message: string;
  readonly violations: readonly Violation[];
}

/** The outcome of one call. */
export type SandboxResult = SandboxAnswer | SandboxRefusal;

/** The APIs the sandbox answers for: the platform's APIs, as the spec model lists them. */
export type SandboxApi = ApiName;

/**
 * One call to the sandbox, already authenticated, limited, scoped and validated by the front layer,
 * with its parameters converted to the types the spec's schemas give them (numbers, booleans,
 * arrays for comma lists).
 */
export interface SandboxCall {
  readonly api: SandboxApi;
  readonly operationId: string;
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** The caller's mall (admin and analytics: the token's); undefined for the collection API. */
  readonly mallId: string | undefined;
}

/** An answer value. */
export const answer = (body: unknown, status = 200): SandboxAnswer => ({ kind: 'answer', status, body });

/** An answer kept for later calls, with its body serialized once. */
export const keptAnswer = (body: unknown, status = 200): SandboxAnswer => ({
  ...answer(body, status),
  json: JSON.stringify(body),
});

/** A refusal value; the message defaults to the violations joined. */
export const refusal = (
  status: SandboxRefusal['status'],
  violations: readonly Violation[],
  message = violations.map((v) => `${v.name} ${v.message}`).join('; '),
): SandboxRefusal => ({ kind: 'refusal', status, message, violations });

/** The mall of an admin or analytics call; throws (misuse) when the call carries none. */
export function callMall(call: SandboxCall): string {
  if (call.mallId === undefined || call.mallId === '')
    throw new Error(`a ${call.api} call needs the mall id of its credentials`);
  return call.mallId;
}
