// Turns an Ajv error into the API's violation: the one name of the parameter or body field it is
// about and a short message. A parameter is named itself (an item index below it adds nothing); a
// body field by its path, the first key, a dot, then the rest joined by `/` with item indexes kept
// (`request.bundle_product_components/1`, as the body rules name fields), a missing property named
// as the field it should be, a key the schema does not know named itself (`request.sed`). Browser-safe: only Ajv's error type is read.
import type { ErrorObject } from 'ajv';
import { bodyFieldName } from './body-rules.js';

/** The field or parameter an error is about, and what is wrong with it. */
export interface NamedViolation {
  readonly name: string;
  readonly message: string;
}

/** How body fields are named. */
export interface FieldNaming {
  /** The name the path starts from (a record, `body`); none by default. */
  readonly root?: string;
  /** The instance path below which the named fields begin (e.g. `/request`); removed from the name. */
  readonly within?: string;
}

const decodeSegment = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function segmentsOf(error: ErrorObject, within: string): string[] {
  const path = error.instancePath.startsWith(within)
    ? error.instancePath.slice(within.length)
    : error.instancePath;
  const segments = path.split('/').slice(1).map(decodeSegment);
  if (error.keyword === 'required' || error.keyword === 'dependentRequired')
    segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  return segments;
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not a known key';
  if (error.keyword === 'enum')
    return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? 'is not valid';
}

/**
 * Whether an error says something of its own: an `if` error only repeats the `then`/`else` errors
 * reported beside it.
 */
export const isReportedError = (error: ErrorObject): boolean => error.keyword !== 'if';

/** The violation of an error from validating parameters as one object keyed by name. */
export function parameterViolation(error: ErrorObject): NamedViolation {
  return { name: segmentsOf(error, '')[0] ?? 'request', message: messageOf(error) };
}

/** The violation of an error from validating a body (or a record) against its schema. */
export function fieldViolation(error: ErrorObject, naming: FieldNaming = {}): NamedViolation {
  const { root, within = '' } = naming;
  const segments = segmentsOf(error, within);
  const path = root === undefined ? segments : [root, ...segments];
  return { name: bodyFieldName(path) || 'request', message: messageOf(error) };
}
