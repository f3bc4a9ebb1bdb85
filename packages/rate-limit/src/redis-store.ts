// The Redis rate-limit store (subpath `@mall-api/rate-limit/redis`), shared by every process that
// points at the same Redis: each decision is one Lua script call (EVALSHA, falling back to EVAL
// when Redis lost the script), so N processes together never exceed a limit. It is the only
// module that imports ioredis, so clients without Redis never load it. Not a connection manager
// beyond the one connection it opens when given a URL.
//
// Time: without an explicit `nowMs` the script reads the Redis server's `TIME`, one clock for all
// processes, so window boundaries and bucket levels do not depend on the callers' clock skew.
// An explicit `nowMs` (a simulated clock in tests, or a caller that wants its own clock) is used
// as given; processes sharing keys must then agree on time. Keys still expire on Redis's clock,
// so on a given clock they live as long as any state can matter (redis-script.ts).
import { createHash } from 'node:crypto';
import { type Cluster, Redis } from 'ioredis';
import { drainMsPerUnit } from './algorithms/leaky-bucket.js';
import { RateLimitError } from './errors.js';
import type { Decision, LimitPolicy } from './policy.js';
import { assertCost, policyLimit } from './policy.js';
import { LIMITER_SCRIPT } from './redis-script.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link RedisStore} shared by both ways of connecting. */
export interface RedisStoreCommonOptions {
  /** Prefix of every key the store writes (default `rate-limit:`). */
  readonly keyPrefix?: string;
}

/** Use a connected ioredis client or cluster; the caller owns it and closes it. */
export interface RedisStoreClientOptions extends RedisStoreCommonOptions {
  readonly redis: Redis | Cluster;
}

/** Open a connection to a `redis://…` URL; {@link RedisStore.close} closes it. */
export interface RedisStoreUrlOptions extends RedisStoreCommonOptions {
  readonly url: string;
}

/** Options of {@link RedisStore}: a connection to use, or a URL to open one. */
export type RedisStoreOptions = RedisStoreClientOptions | RedisStoreUrlOptions;

type Operation = 'decide' | 'peek' | 'observe';

/** SHA-1 of {@link LIMITER_SCRIPT}, the name EVALSHA calls it by. */
export const LIMITER_SCRIPT_SHA = createHash('sha1').update(LIMITER_SCRIPT).digest('hex');

/** A {@link RateLimitStore} in Redis; keys are `<prefix><policy kind>:<key>` and expire by themselves. */
export class RedisStore implements RateLimitStore {
  readonly #redis: Redis | Cluster;
  readonly #ownsConnection: boolean;
  readonly #keyPrefix: string;

  constructor(options: RedisStoreOptions) {
    if ('redis' in options) {
      this.#redis = options.redis;
      this.#ownsConnection = false;
    } else {
      this.#redis = new Redis(options.url);
      this.#ownsConnection = true;
    }
    this.#keyPrefix = options.keyPrefix ?? 'rate-limit:';
  }

  /** The Redis key that holds the state of `key` under `policy`. */
  redisKey(key: string, policy: LimitPolicy): string {
    return `${this.#keyPrefix}${policy.kind}:${key}`;
  }

  decide(key: string, policy: LimitPolicy, nowMs?: number, cost = 1): Promise<Decision> {
    return this.#run('decide', key, policy, nowMs, cost, undefined);
  }

  peek(key: string, policy: LimitPolicy, nowMs?: number, cost = 1): Promise<Decision> {
    return this.#run('peek', key, policy, nowMs, cost, undefined);
  }

  observe(key: string, policy: LimitPolicy, remaining: number, nowMs?: number): Promise<Decision> {
    return this.#run('observe', key, policy, nowMs, 1, remaining);
  }

  /** Closes the connection if the store opened it (from a URL); a given client is left open. */
  async close(): Promise<void> {
    if (this.#ownsConnection) await this.#redis.quit();
  }

  async #run(
    operation: Operation,
    key: string,
    policy: LimitPolicy,
    nowMs: number | undefined,
    cost: number,
    remaining: number | undefined,
  ): Promise<Decision> {
    const limit = policyLimit(policy);
    assertCost(cost, limit);
    const args = [
      operation,
      policy.kind === 'fixed-window' || policy.kind === 'sliding-log' ? policy.kind : 'bucket',
      String(limit),
      String(msPerUnit(policy)),
      String(cost),
      remaining === undefined ? '' : String(remaining),
      nowMs === undefined ? '' : String(nowMs),
    ];
    const redisKey = this.redisKey(key, policy);
    let reply: unknown;
    try {
      reply = await this.#evaluate(redisKey, args);
    } catch (error) {
      throw new RateLimitError('store_failed', `The Redis rate-limit store could not ${operation}.`, {
        context: { key: redisKey, operation },
        cause: error,
      });
    }
    return toDecision(reply, limit, redisKey);
  }

  async #evaluate(redisKey: string, args: string[]): Promise<unknown> {
    try {
      return await this.#redis.evalsha(LIMITER_SCRIPT_SHA, 1, redisKey, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      // Redis restarted or flushed its scripts: EVAL sends the text and caches it again.
      return this.#redis.eval(LIMITER_SCRIPT, 1, redisKey, ...args);
    }
  }
}

/** The script's span: window length, or ms per unit of the bucket. */
function msPerUnit(policy: LimitPolicy): number {
  switch (policy.kind) {
    case 'sliding-log':
    case 'fixed-window':
      return policy.windowMs;
    case 'leaky-bucket':
      return drainMsPerUnit(policy);
    case 'token-bucket':
      return policy.refillIntervalMs;
  }
}

function toDecision(reply: unknown, limit: number, redisKey: string): Decision {
  const values = Array.isArray(reply) ? reply.map((value: unknown) => Number(value)) : [];
  const [allowed, used, remaining, retryAfterMs, resetMs] = values;
  if (
    allowed === undefined ||
    used === undefined ||
    remaining === undefined ||
    retryAfterMs === undefined ||
    resetMs === undefined ||
    values.some((value) => Number.isNaN(value))
  ) {
    throw new RateLimitError('store_failed', 'The Redis rate-limit script answered in an unexpected shape.', {
      context: { key: redisKey },
    });
  }
  return { allowed: allowed === 1, limit, used, remaining, retryAfterMs, resetMs };
}
