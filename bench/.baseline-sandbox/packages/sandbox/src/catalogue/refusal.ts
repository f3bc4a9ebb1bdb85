// The refusals the catalogue services throw inside a store transaction, so nothing the call wrote
// is kept: each a RefusalError carrying the package's one refusal shape (sandbox-result.ts). The
// mall (malls/sandbox-malls.ts) answers the refusal it carries, so no exception leaves the package.
import type { Violation } from '../protocol.js';
import { RefusalError, refusal } from '../sandbox-result.js';

/** A record that does not exist. */
export const notFound = (message: string) => new RefusalError(refusal('not-found', [], message));

/** One body field that breaks a rule. */
export const invalidField = (name: string, message: string) =>
  new RefusalError(refusal('invalid', [{ location: 'body', name, message }]));

/** Several fields that break rules. */
export const invalidFields = (violations: readonly Violation[]) =>
  new RefusalError(refusal('invalid', violations));
