// Fault rules in Redis, shared by every replica: per mall a hash of rules by id
// (`<prefix>mall:<id>:faults`) and a hash of the calls left of counted rules (`…:faults:left`),
// ids from one deployment-wide sequence. Using up a call is one HINCRBY: of the replicas taking
// the last call of a "next N calls" rule only one gets it, so the rule fires N times in total;
// a replica that finds the count gone below zero removes the rule and looks at the next one.
import { type FaultAction, type FaultRule, type FaultRules, faultApplies } from '../malls/fault-rules.js';
import { mallKey, type SharedRedis } from './redis-connection.js';

type StoredRule = Omit<FaultRule, 'remaining'> & { readonly counted: boolean };

/** Creates the rules over the shared connection. */
export function redisFaultRules(shared: SharedRedis): FaultRules {
  const rulesKey = (mallId: string) => `${mallKey(shared, mallId)}faults`;
  const leftKey = (mallId: string) => `${mallKey(shared, mallId)}faults:left`;
  const sequence = `${shared.prefix}faults:sequence`;
  const load = async (mallId: string) => {
    // Issued together, so they leave in one write (auto-pipelining) and come back in one read.
    const [rules, left] = await shared.run((client) =>
      Promise.all([client.hgetall(rulesKey(mallId)), client.hgetall(leftKey(mallId))]),
    );
    return Object.values(rules)
      .map((text) => JSON.parse(text) as StoredRule)
      .sort((a, b) => a.id - b.id)
      .map(
        ({ counted, ...rule }): FaultRule =>
          counted ? { ...rule, remaining: Number(left[rule.id] ?? 0) } : rule,
      )
      .filter((rule) => rule.remaining === undefined || rule.remaining > 0);
  };
  const remove = (mallId: string, id: number) =>
    shared.run(async (client) => {
      const [[, removed] = []] =
        (await client.multi().hdel(rulesKey(mallId), String(id)).hdel(leftKey(mallId), String(id)).exec()) ??
        [];
      return removed === 1;
    });
  return {
    add: (mallId, rule) =>
      shared.run(async (client) => {
        const id = await client.incr(sequence);
        const { remaining, ...kept } = rule;
        const stored: StoredRule = { id, ...kept, counted: remaining !== undefined };
        const write = client.multi().hset(rulesKey(mallId), String(id), JSON.stringify(stored));
        if (remaining !== undefined) write.hset(leftKey(mallId), String(id), remaining);
        await write.exec();
        return { id, ...rule };
      }),
    list: load,
    remove,
    clear: (mallId) =>
      shared.run(async (client) => {
        const [[, held] = []] =
          (await client.multi().hlen(rulesKey(mallId)).del(rulesKey(mallId), leftKey(mallId)).exec()) ?? [];
        return Number(held ?? 0);
      }),
    async take(mallId, target): Promise<FaultAction | undefined> {
      for (const rule of await load(mallId)) {
        if (!faultApplies(rule.match, target)) continue;
        if (rule.remaining === undefined) return rule.action;
        const left = await shared.run((client) => client.hincrby(leftKey(mallId), String(rule.id), -1));
        if (left <= 0) await remove(mallId, rule.id);
        if (left >= 0) return rule.action;
      }
      return undefined;
    },
  };
}
