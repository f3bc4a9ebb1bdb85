// Fault and latency injection per mall: rules matching requests (API, operation id, method, path),
// or the deliveries of the mall's events (the `webhooks` target), and what each does (FaultAction).
// The first matching rule applies; a counted rule is used up after that many calls; a profile's
// calls are numbered, so its n-th call draws the same on any replica. The interface, the matching
// and the rules of one process; Redis's are redis/redis-fault-rules.ts, a profile's draws the mock's.

/** How long a profile's calls wait, by distribution (milliseconds). */
export type FaultLatency =
  | { readonly distribution: 'fixed'; readonly ms: number }
  | { readonly distribution: 'uniform'; readonly minMs: number; readonly maxMs: number }
  | { readonly distribution: 'log-normal'; readonly medianMs: number; readonly p99Ms: number };

/** A status a profile answers instead of the request, with its probability per call. */
export interface FaultErrorRate {
  readonly status: number;
  readonly rate: number;
  readonly retryAfterSeconds?: number;
}

/** How a lost answer is lost: the connection closed, or a 504 sent instead. */
export type AnswerLoss = 'drop' | 'gateway-timeout';

/** What a fault rule does to a matching request. */
export type FaultAction =
  | { readonly kind: 'delay'; readonly minMs: number; readonly maxMs: number }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterSeconds?: number }
  | { readonly kind: 'drop' }
  | { readonly kind: 'hang' }
  | {
      readonly kind: 'profile';
      readonly latency?: FaultLatency;
      readonly errors?: readonly FaultErrorRate[];
      readonly seed: number;
    }
  | { readonly kind: 'lost-answer'; readonly by: AnswerLoss }
  /** A delivery sent twice (deliveries only). */
  | { readonly kind: 'duplicate' };

/** A rule that fired: its action, and (a profile's) how many matching calls it took before this one. */
export interface FiredFault {
  readonly action: FaultAction;
  /** The call's number from 0, counted for profiles (0 for other actions). */
  readonly call: number;
}

/** The target of the rules that apply to the deliveries of a mall's events. */
export const deliveryTarget = 'webhooks';

/** Which requests (or deliveries) a rule applies to; every given field must match. */
export interface FaultMatch {
  /** The API, or {@link deliveryTarget} for deliveries (a rule without it applies to requests only). */
  readonly api?: string;
  /** Deliveries of this event only. */
  readonly event_no?: number;
  readonly operationId?: string;
  readonly method?: string;
  readonly path?: string;
}

/** A rule as stored. */
export interface FaultRule {
  readonly id: number;
  readonly match: FaultMatch;
  readonly action: FaultAction;
  /** Calls left before the rule is used up; undefined: every matching call. */
  readonly remaining?: number;
}

/** The request (or delivery) a rule is matched against. */
export interface FaultTarget {
  /** The API, or {@link deliveryTarget} for a delivery. */
  readonly api: string;
  /** A delivery's event number. */
  readonly eventNo?: number;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
}

/**
 * Per-mall fault rules, in this process's memory or in Redis (redis/redis-fault-rules.ts). A
 * counted rule fires that many times in total, whichever replica takes the calls.
 */
export interface FaultRules {
  add(mallId: string, rule: Omit<FaultRule, 'id'>): Promise<FaultRule>;
  list(mallId: string): Promise<FaultRule[]>;
  remove(mallId: string, id: number): Promise<boolean>;
  clear(mallId: string): Promise<number>;
  /** The rule that fires for a request, using up one call of a counted rule and numbering a profile's calls. */
  take(mallId: string, target: FaultTarget): Promise<FiredFault | undefined>;
}

/** Whether a rule's match applies to a request. */
export const faultApplies = (match: FaultMatch, target: FaultTarget) =>
  (match.api === deliveryTarget) === (target.api === deliveryTarget) &&
  (match.api === undefined || match.api === target.api) &&
  (match.event_no === undefined || match.event_no === target.eventNo) &&
  (match.operationId === undefined || match.operationId === target.operationId) &&
  (match.method === undefined || match.method.toUpperCase() === target.method) &&
  (match.path === undefined || match.path === target.path);

/** Whether a rule's calls are numbered (its draws depend on the number). */
export const numbersCalls = (action: FaultAction): boolean => action.kind === 'profile';

/** Creates empty per-mall fault rules. */
export function createFaultRules(): FaultRules {
  const byMall = new Map<string, FaultRule[]>();
  // Calls each numbered rule took, by rule id (ids are unique in the process).
  const calls = new Map<number, number>();
  let nextId = 0;
  return {
    async add(mallId, rule) {
      const stored = { ...rule, id: ++nextId };
      byMall.set(mallId, [...(byMall.get(mallId) ?? []), stored]);
      return stored;
    },
    list: async (mallId) => [...(byMall.get(mallId) ?? [])],
    async remove(mallId, id) {
      const rules = byMall.get(mallId) ?? [];
      const kept = rules.filter((rule) => rule.id !== id);
      byMall.set(mallId, kept);
      if (kept.length === rules.length) return false;
      calls.delete(id);
      return true;
    },
    async clear(mallId) {
      const rules = byMall.get(mallId) ?? [];
      for (const rule of rules) calls.delete(rule.id);
      byMall.delete(mallId);
      return rules.length;
    },
    async take(mallId, target) {
      const rules = byMall.get(mallId);
      const index = rules?.findIndex((rule) => faultApplies(rule.match, target)) ?? -1;
      const rule = rules?.[index];
      if (!rules || !rule) return undefined;
      const call = calls.get(rule.id) ?? 0;
      if (numbersCalls(rule.action)) calls.set(rule.id, call + 1);
      if (rule.remaining !== undefined) {
        if (rule.remaining > 1) rules[index] = { ...rule, remaining: rule.remaining - 1 };
        else {
          rules.splice(index, 1);
          calls.delete(rule.id);
        }
      }
      return { action: rule.action, call };
    },
  };
}
