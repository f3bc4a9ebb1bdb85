// Fault and latency injection per mall: rules that match requests (operation id, method, path) and
// delay them (fixed or random), answer a given status (for the next N matching calls, then let
// requests through again), drop the connection, or never answer so the client times out. The
// first matching rule applies; a rule with a count is used up after that many calls. This module
// is the interface, the matching rule and the in-memory rules of one process.

/** What a fault rule does to a matching request. */
export type FaultAction =
  | { readonly kind: 'delay'; readonly minMs: number; readonly maxMs: number }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterSeconds?: number }
  | { readonly kind: 'drop' }
  | { readonly kind: 'hang' };

/** Which requests a rule applies to; every given field must match. */
export interface FaultMatch {
  readonly api?: string;
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

/** The request a rule is matched against. */
export interface FaultTarget {
  readonly api: string;
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
  /** The action for a request, using up one call of a counted rule. */
  take(mallId: string, target: FaultTarget): Promise<FaultAction | undefined>;
}

/** Whether a rule's match applies to a request. */
export const faultApplies = (match: FaultMatch, target: FaultTarget) =>
  (match.api === undefined || match.api === target.api) &&
  (match.operationId === undefined || match.operationId === target.operationId) &&
  (match.method === undefined || match.method.toUpperCase() === target.method) &&
  (match.path === undefined || match.path === target.path);

/** Creates empty per-mall fault rules. */
export function createFaultRules(): FaultRules {
  const byMall = new Map<string, FaultRule[]>();
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
      return kept.length < rules.length;
    },
    async clear(mallId) {
      const cleared = byMall.get(mallId)?.length ?? 0;
      byMall.delete(mallId);
      return cleared;
    },
    async take(mallId, target) {
      const rules = byMall.get(mallId);
      const index = rules?.findIndex((rule) => faultApplies(rule.match, target)) ?? -1;
      const rule = rules?.[index];
      if (!rules || !rule) return undefined;
      if (rule.remaining !== undefined) {
        if (rule.remaining <= 1) rules.splice(index, 1);
        else rules[index] = { ...rule, remaining: rule.remaining - 1 };
      }
      return rule.action;
    },
  };
}
