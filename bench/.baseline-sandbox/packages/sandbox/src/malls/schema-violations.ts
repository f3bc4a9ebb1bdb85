// Schema violations of stored records: a value is checked by a validator compiled from the spec
// model, and each error becomes one body violation naming the record and its field
// (`<record>.<path>`, as the spec model's `fieldViolation` names fields). Fixtures and snapshots are
// both checked this way before anything is written.
import { fieldViolation, isReportedError, type SpecModel } from '@mall-api/spec-model';
import type { Violation } from '../protocol.js';

/** A validator compiled from the spec model. */
export type SchemaValidator = ReturnType<ReturnType<SpecModel['schemas']>['compile']>;

/**
 * The violations of `value` against `validate`, each named `record` plus the field it is about;
 * `within` is the instance path under which the record's own fields begin (e.g. `/request`).
 */
export function schemaViolations(
  validate: SchemaValidator,
  value: unknown,
  record: string,
  within = '',
): Violation[] {
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .filter(isReportedError)
    .map((error) => ({ location: 'body', ...fieldViolation(error, { root: record, within }) }));
}
