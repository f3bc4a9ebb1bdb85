// The platform's error envelope, `{"error":{"code","message","more_info"}}`, its code for each HTTP
// status read from the spec (the envelope's `code` enum, through @mall-api/spec-model's
// errorCodesOf; every API's bundle shares the one schema). Every error the mock servers send is
// built here, but the 429 refusal, whose envelope (with Retry-After's seconds) @mall-api/rate-limit
// builds for every API alike.
import { errorCodesOf, loadSpecSync } from '@mall-api/spec-model';

/** One violated rule of a rejected request (`more_info.violations[]`). */
export interface Violation {
  location: 'query' | 'path' | 'header' | 'body';
  name: string;
  message: string;
}

/** The error envelope body. */
export interface ErrorEnvelope {
  error: { code: string; message: string; more_info: Record<string, unknown> };
}

/** The code of each status, read from the bundled spec's error envelope when first needed. */
let codeByStatus: Map<number, string> | undefined;
const codeOf = (status: number): string => {
  codeByStatus ??= errorCodesOf(loadSpecSync('admin').document);
  // A status the spec pairs with no code is answered as the spec's internal error.
  const code = codeByStatus.get(status) ?? codeByStatus.get(500);
  if (code === undefined) throw new Error('the spec pairs no error code with status 500');
  return code;
};

/** Builds an envelope for `status` with a message and optional details. */
export function errorEnvelope(
  status: number,
  message: string,
  moreInfo: Record<string, unknown> = {},
): ErrorEnvelope {
  return { error: { code: codeOf(status), message, more_info: moreInfo } };
}

/** Builds the 422 envelope for a list of violations; the message names every offending parameter. */
export function invalidParameterEnvelope(violations: readonly Violation[]): ErrorEnvelope {
  const message = violations.map((v) => `${v.name} ${v.message}`).join('; ');
  return errorEnvelope(422, message || 'The request is not valid.', { violations });
}
