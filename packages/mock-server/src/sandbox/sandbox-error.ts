// The errors the sandbox's services raise: a status (404, 422, 207) with a message and the
// violations naming each offending field, answered in the API's error envelope. A service throws
// one inside a store transaction, so nothing the request wrote is kept.
import type { Violation } from '../error-envelope.js';

/** A refused sandbox request. */
export class SandboxError extends Error {
  constructor(
    readonly status: 404 | 422 | 207,
    message: string,
    readonly violations: readonly Violation[] = [],
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** 404 for a resource that does not exist. */
export const notFound = (message: string) => new SandboxError(404, message);

/** 422 naming one body field. */
export const invalidField = (name: string, message: string) =>
  new SandboxError(422, `${name} ${message}`, [{ location: 'body', name, message }]);

/** 422 for several violations. */
export const invalidFields = (violations: readonly Violation[]) =>
  new SandboxError(422, violations.map((v) => `${v.name} ${v.message}`).join('; '), violations);
