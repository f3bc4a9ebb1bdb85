// Schema violations as the control API names them: a value is checked by a validator compiled from
// the spec model, and each error becomes one body violation naming the record and its field
// (`<record>.<path>`, a missing property named as the field it should be). Fixtures and snapshots
// are both checked this way before anything is written.
import type { SpecModel } from '@mall-api/spec-model';
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
  return (validate.errors ?? []).map((error) => {
    const path = error.instancePath.slice(error.instancePath.startsWith(within) ? within.length : 0);
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : '';
    const field = [path.replace(/^\//, ''), missing].filter(Boolean).join('/');
    return {
      location: 'body',
      name: `${record}${field ? `.${field}` : ''}`,
      message: error.message ?? 'is not valid',
    };
  });
}
