// The platform's error envelope, `{"error":{"code","message","more_info"}}`, and the codes we use
// for each HTTP status. Every error the mock servers send is built here, but the 429 refusal, whose
// envelope (with Retry-After's seconds) @mall-api/rate-limit builds for every API alike.

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

const codeByStatus: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'invalid_parameter',
  429: 'too_many_requests',
  431: 'request_header_fields_too_large',
  500: 'internal_error',
  501: 'not_implemented',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Builds an envelope for `status` with a message and optional details. */
export function errorEnvelope(
  status: number,
  message: string,
  moreInfo: Record<string, unknown> = {},
): ErrorEnvelope {
  return { error: { code: codeByStatus[status] ?? 'internal_error', message, more_info: moreInfo } };
}

/** Builds the 422 envelope for a list of violations; the message names every offending parameter. */
export function invalidParameterEnvelope(violations: readonly Violation[]): ErrorEnvelope {
  const message = violations.map((v) => `${v.name} ${v.message}`).join('; ');
  return errorEnvelope(422, message || 'The request is not valid.', { violations });
}
