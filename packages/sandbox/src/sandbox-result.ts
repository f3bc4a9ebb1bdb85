// The sandbox's outcomes as values (their types are protocol.ts's) and the one refusal shape every
// part of the package uses. A refusal raised inside a store transaction (the services throw the
// ones below) travels as a RefusalError, so the transaction keeps nothing, and is answered as a
// value where the call entered the package (malls/sandbox-malls.ts), so no exception leaves it.
import type {
  Found,
  PartlyApplied,
  Refusal,
  RefusalReason,
  SandboxCall,
  Violation,
  Written,
} from './protocol.js';

/** A read answered. */
export const found = (body: unknown): Found => ({ ok: true, kind: 'found', body });

/** A read answer kept for later calls, with its body serialized once. */
export const keptFound = (body: unknown): Found => ({ ...found(body), json: JSON.stringify(body) });

/** A record created. */
export const created = (body: unknown): Written => ({ ok: true, kind: 'created', body });

/** A record updated (or a set of records reordered). */
export const updated = (body: unknown): Written => ({ ok: true, kind: 'updated', body });

/** A record deleted. */
export const deleted = (body: unknown): Written => ({ ok: true, kind: 'deleted', body });

/** A write of several items of which some were applied. */
export const partlyApplied = (body: unknown, items: PartlyApplied['items']): PartlyApplied => ({
  ok: true,
  kind: 'partly-applied',
  body,
  items,
});

/** A violation of a body field. */
export function bodyViolation(name: string, message: string): Violation {
  return { location: 'body', name, message };
}

/** The message naming every violation. */
const joined = (violations: readonly Violation[]) =>
  violations.map((v) => `${v.name} ${v.message}`).join('; ');

/** A refusal value; the message defaults to the violations joined. */
export const refusal = (
  reason: RefusalReason,
  violations: readonly Violation[],
  message = joined(violations),
): Refusal => ({ ok: false, reason, message, violations });

/** The refusal of a change that met another change to the mall (asking again may succeed). */
const conflict = (message: string): Refusal => refusal('conflict', [bodyViolation('mall', message)], message);

/** The refusal of a fixture load the mall was written during (an API write would be lost). */
export const writtenDuringLoad = (): Refusal =>
  conflict('the mall changed while the fixture loaded (an API write): nothing was loaded');

/** A refusal thrown inside a store transaction, so nothing the call wrote is kept. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'RefusalError';
  }
}

/** What the caller may not read (the violation names the parameter that asks for it). */
export const forbidden = (violation: Violation, message: string) =>
  new RefusalError(refusal('forbidden', [violation], message));

/** A record that does not exist. */
export const notFound = (message: string) => new RefusalError(refusal('not-found', [], message));

/** One body field that breaks a rule. */
export const invalidField = (name: string, message: string) =>
  new RefusalError(refusal('invalid', [bodyViolation(name, message)]));

/** Several fields that break rules. */
export const invalidFields = (violations: readonly Violation[]) =>
  new RefusalError(refusal('invalid', violations));

/** The refusal an error carries, or undefined for any other error. */
export const refusalOf = (error: unknown): Refusal | undefined =>
  error instanceof RefusalError ? error.refusal : undefined;

/** The mall of an admin or analytics call; throws (misuse) when the call carries none. */
export function callMall(call: SandboxCall): string {
  if (call.mallId === undefined || call.mallId === '')
    throw new Error(`a ${call.api} call needs the mall id of its credentials`);
  return call.mallId;
}
