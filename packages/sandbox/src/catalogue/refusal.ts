// The refusals the catalogue services raise inside the package: a status (404, 409, 422) with a
// message and the violations naming each offending field. A service throws one inside a store
// transaction, so nothing the call wrote is kept; the mall (malls/mall.ts) catches it and answers
// a `refusal` value, so no exception leaves the package.
import { refusal, type SandboxRefusal, type Violation } from '../sandbox-result.js';

/** A refused operation, thrown inside the package only. */
export class DomainRefusal extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
    readonly violations: readonly Violation[] = [],
  ) {
    super(message);
    this.name = 'DomainRefusal';
  }

  /** The value the package answers for it. */
  toResult(): SandboxRefusal {
    return refusal(this.status, this.violations, this.message);
  }
}

/** 404 for a resource that does not exist. */
export const notFound = (message: string) => new DomainRefusal(404, message);

/** 422 naming one body field. */
export const invalidField = (name: string, message: string) =>
  new DomainRefusal(422, `${name} ${message}`, [{ location: 'body', name, message }]);

/** 422 for several violations. */
export const invalidFields = (violations: readonly Violation[]) =>
  new DomainRefusal(422, violations.map((v) => `${v.name} ${v.message}`).join('; '), violations);
