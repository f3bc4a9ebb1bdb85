// The control API's rules beyond the shape of its input, each broken rule one violation naming its
// key: a fault or journal filter may only name an operation the API has (in the specs the mocks
// serve, given by the composition root), a delay's range may not run backwards, and a mall's clock stays between the Unix epoch
// and the end of year 9999, where every clock read still makes a valid date-time.
import { type ApiSpecs, apiNames } from '@mall-api/spec-model';
import type { Violation } from '../error-envelope.js';

/** The latest time a mall's clock may show: 9999-12-31T23:59:59.999Z. */
export const latestClockMs = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const body = (name: string, message: string): Violation => ({ location: 'body', name, message });

/**
 * The violation of an operation id the API (or, without `api`, every API) does not have in `specs`.
 * @param name the key that holds the operation id (`match.operationId`)
 */
export function operationViolation(
  specs: ApiSpecs,
  api: string | undefined,
  operationId: string | undefined,
  name: string,
  location: Violation['location'] = 'body',
): Violation | undefined {
  if (operationId === undefined) return undefined;
  const apis = api === undefined ? apiNames : apiNames.filter((known) => known === api);
  if (apis.some((known) => specs[known].operation(operationId) !== undefined)) return undefined;
  return {
    location,
    name,
    message: `${operationId} is not an operation of ${api === undefined ? 'any API' : `the ${api} API`}`,
  };
}

/** The violation of a delay whose longest time is shorter than its shortest. */
export function delayViolation(action: {
  kind: string;
  minMs?: number;
  maxMs?: number;
}): Violation | undefined {
  const { minMs = 0, maxMs } = action;
  return action.kind === 'delay' && maxMs !== undefined && maxMs < minMs
    ? body('action.maxMs', `must be at least minMs (${minMs})`)
    : undefined;
}

/** The violation of a clock change that would take the mall's clock outside 1970–9999. */
export function clockViolation(name: 'at' | 'advanceMs', resultMs: number): Violation | undefined {
  return Number.isFinite(resultMs) && resultMs >= 0 && resultMs <= latestClockMs
    ? undefined
    : body(name, 'would put the mall’s clock outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z');
}
