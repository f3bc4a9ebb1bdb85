// The control API's rules beyond the shape of its input, each broken rule one violation naming its
// key, and the bounds the control spec states for fault delays.
import { deliveryTarget } from '@mall-api/mall-state';
import { type ApiSpecs, apiNames, nodeAt, type SpecModel } from '@mall-api/spec-model';
import type { Violation } from '../http/error-envelope.js';

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

/** The violation of a fault mixing deliveries and requests: its match or its kind. */
export function deliveryFaultViolation(
  control: SpecModel,
  match: { api?: string; event_no?: number; operationId?: string; method?: string; path?: string },
  action: { kind: string; minMs?: number; maxMs?: number },
): Violation | undefined {
  if (match.api !== deliveryTarget) {
    if (match.event_no !== undefined)
      return body('match.event_no', `applies to deliveries only (match.api ${deliveryTarget})`);
    return action.kind === 'duplicate'
      ? body('action.kind', `duplicate applies to deliveries only (match.api ${deliveryTarget})`)
      : undefined;
  }
  const named = (['operationId', 'method', 'path'] as const).find((field) => match[field] !== undefined);
  if (named) return body(`match.${named}`, 'a fault on deliveries names no operation, method or path');
  const kinds = deliveryFaultKinds(control);
  if (!kinds.includes(action.kind))
    return body('action.kind', `a fault on deliveries is one of ${kinds.join(', ')}`);
  const longest = deliveryDelayBound(control);
  const over = (['minMs', 'maxMs'] as const).find((key) => (action[key] ?? 0) > longest);
  return over ? body(`action.${over}`, `a delivery is delayed at most ${longest} ms`) : undefined;
}

/** The control spec's node at `#/components/schemas/<path>`; throws when it is missing or not what `is` accepts. */
function stated<T>(control: SpecModel, path: string, is: (node: unknown) => node is T): T {
  const node = nodeAt(control.document, `#/components/schemas/${path}`);
  if (!is(node)) throw new Error(`the control spec states no ${path}`);
  return node;
}

const isNumber = (node: unknown): node is number => typeof node === 'number';

/** What a fault on deliveries may do: the control spec's `DeliveryFaultKind` enum. */
export const deliveryFaultKinds = (control: SpecModel): readonly string[] =>
  stated(control, 'DeliveryFaultKind/enum', Array.isArray).map(String);

/** The longest delay a fault may hold a delivery, in milliseconds: the control spec's `DeliveryDelayMs` maximum. */
export const deliveryDelayBound = (control: SpecModel): number =>
  stated(control, 'DeliveryDelayMs/maximum', isNumber);

/** The longest delay a fault may hold a request, in milliseconds: the control spec's `DelayMs` maximum. */
export const delayBound = (control: SpecModel): number => stated(control, 'DelayMs/maximum', isNumber);

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

/** The violation of a profile that draws nothing, errors more often than every call, or a p99 below its median. */
export function profileViolation(action: {
  kind: string;
  latency?: { distribution: string; minMs?: number; maxMs?: number; medianMs?: number; p99Ms?: number };
  errors?: readonly { rate: number }[];
}): Violation | undefined {
  if (action.kind !== 'profile') return undefined;
  const { latency, errors } = action;
  if (latency === undefined && errors === undefined)
    return body('action', 'a profile needs latency, errors or both');
  const rates = (errors ?? []).reduce((sum, error) => sum + error.rate, 0);
  // Decimal rates that add up to 1 exactly may pass it by a rounding error.
  if (rates > 1 + 1e-9) return body('action.errors', `the rates add up to ${rates}, more than 1`);
  const { minMs = 0, maxMs, medianMs = 0, p99Ms } = latency ?? {};
  if (maxMs !== undefined && maxMs < minMs)
    return body('action.latency/maxMs', `must be at least minMs (${minMs})`);
  return p99Ms !== undefined && p99Ms < medianMs
    ? body('action.latency/p99Ms', `must be at least medianMs (${medianMs})`)
    : undefined;
}

/** The violation of a clock change that would take the mall's clock outside 1970–9999. */
export function clockViolation(name: 'at' | 'advanceMs', resultMs: number): Violation | undefined {
  return Number.isFinite(resultMs) && resultMs >= 0 && resultMs <= latestClockMs
    ? undefined
    : body(name, 'would put the mall’s clock outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z');
}
