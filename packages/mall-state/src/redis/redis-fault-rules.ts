// Fault rules in Redis, shared by replicas: per mall one hash (`<prefix>cached:faults:<id>`) of each
// rule (`rule:<id>`) and the calls left of each counted rule (`left:<id>`), ids from one sequence.
// Every request reads its mall's rules, which change rarely, so replicas keep a copy Redis
// invalidates (redis-read-cache.ts). Using up a call is one HINCRBY, so a "next N calls" rule fires
// N times in total; a replica that finds the count below zero removes the rule and tries the next.
// A profile's calls are numbered in a hash of their own (`<prefix>mall:<id>:fault-calls`), outside
// the cached keys so that numbering a call does not invalidate every replica's copy.
import {
  type FaultRule,
  type FaultRules,
  type FiredFault,
  faultApplies,
  numbersCalls,
} from '../malls/fault-rules.js';
import { cachedKey, changeCached, mallKey, type SharedRedis } from './redis-connection.js';

type StoredRule = Omit<FaultRule, 'remaining'> & { readonly counted: boolean };

/** A mall's fault rules key. */
export const faultsKey = (shared: SharedRedis, mallId: string): string => cachedKey(shared, 'faults', mallId);

/** The rules of a hash as stored (`rule:<id>` and `left:<id>` fields), in id order, used-up ones left out. */
function rulesOf(fields: Record<string, string>): FaultRule[] {
  return Object.entries(fields)
    .filter(([field]) => field.startsWith('rule:'))
    .map(([, text]) => JSON.parse(text) as StoredRule)
    .sort((a, b) => a.id - b.id)
    .map(
      ({ counted, ...rule }): FaultRule =>
        counted ? { ...rule, remaining: Number(fields[`left:${rule.id}`] ?? 0) } : rule,
    )
    .filter((rule) => rule.remaining === undefined || rule.remaining > 0);
}

/** Creates the rules over the shared connection. */
export function redisFaultRules(shared: SharedRedis): FaultRules {
  const sequence = `${shared.prefix}faults:sequence`;
  const load = (mallId: string) => {
    const key = faultsKey(shared, mallId);
    return shared.cache.read(key, () => shared.run(async (client) => rulesOf(await client.hgetall(key))));
  };
  const change = <T>(mallId: string, write: (key: string) => Promise<T>) =>
    changeCached(shared, faultsKey(shared, mallId), write);
  const callsKey = (mallId: string) => `${mallKey(shared, mallId)}fault-calls`;
  const remove = (mallId: string, id: number) =>
    change(mallId, async (key) => {
      const [[, removed] = []] =
        (await shared.client
          .multi()
          .hdel(key, `rule:${id}`, `left:${id}`)
          .hdel(callsKey(mallId), String(id))
          .exec()) ?? [];
      return (removed as number) > 0;
    });
  /** The number of a numbered rule's call (from 0); 0 for other rules. */
  const callOf = async (mallId: string, rule: FaultRule) =>
    numbersCalls(rule.action)
      ? (await shared.run((client) => client.hincrby(callsKey(mallId), String(rule.id), 1))) - 1
      : 0;
  return {
    add: (mallId, rule) =>
      shared.run(async (client) => {
        const id = await client.incr(sequence);
        const { remaining, ...kept } = rule;
        const stored: StoredRule = { id, ...kept, counted: remaining !== undefined };
        const fields: Record<string, string | number> = { [`rule:${id}`]: JSON.stringify(stored) };
        if (remaining !== undefined) fields[`left:${id}`] = remaining;
        await change(mallId, (key) => client.hset(key, fields));
        return { id, ...rule };
      }),
    list: async (mallId) => [...(await load(mallId))],
    remove,
    clear: (mallId) =>
      change(mallId, async (key) => {
        const [[, fields] = []] =
          (await shared.client.multi().hkeys(key).del(key, callsKey(mallId)).exec()) ?? [];
        return ((fields as string[] | undefined) ?? []).filter((field) => field.startsWith('rule:')).length;
      }),
    async take(mallId, target): Promise<FiredFault | undefined> {
      for (const rule of await load(mallId)) {
        if (!faultApplies(rule.match, target)) continue;
        if (rule.remaining === undefined) return { action: rule.action, call: await callOf(mallId, rule) };
        const left = await change(mallId, (key) => shared.client.hincrby(key, `left:${rule.id}`, -1));
        if (left < 0) {
          await remove(mallId, rule.id);
          continue;
        }
        const call = await callOf(mallId, rule);
        if (left === 0) await remove(mallId, rule.id);
        return { action: rule.action, call };
      }
      return undefined;
    },
  };
}
