#!/usr/bin/env node
// Benchmark: rate-limit decisions per second of each API's algorithm (as its spec states it:
// sliding log, leaky bucket, token bucket) as a pure function, on the in-memory store a server
// uses (`MemoryStore`, the four algorithms picked by the policy's kind), on the memory store a
// client uses (run by its API's algorithm alone, from the API's limit model), with the ratio of
// the two, and on a real Redis server (one atomic Lua script per decision, 64 decisions in flight).
//   node bench/rate-limit-decisions.mjs [--seconds 2]
import { parseArgs } from 'node:util';
import {
  AlgorithmMemoryStore,
  adminLimitModel,
  analyticsLimitModel,
  collectionLimitModel,
  decideLimit,
  MemoryStore,
} from '@mall-api/rate-limit';
import { RedisStore } from '@mall-api/rate-limit/redis';
import { startRedis } from './support/redis.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' } } });
const budgetMs = Number(values.seconds) * 1000;
/** @type {import('@mall-api/rate-limit').ApiLimitModel[]} */
const models = [collectionLimitModel, adminLimitModel, analyticsLimitModel];

/**
 * Runs `step` (with a running count) for the time budget; returns steps per second.
 * @param {(index: number) => void} step
 */
function measureSync(step) {
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < budgetMs) {
    for (let i = 0; i < 1000; i++) step(count++);
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * Runs `step` for the time budget with `inFlight` steps awaited at once; returns steps per second.
 * @param {(index: number) => Promise<unknown>} step
 * @param {number} inFlight
 */
async function measureAsync(step, inFlight) {
  let count = 0;
  const started = performance.now();
  const lane = async () => {
    while (performance.now() - started < budgetMs) await step(count++);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return count / ((performance.now() - started) / 1000);
}

const redis = await startRedis();
const redisStore = new RedisStore({ url: redis.url });
/** @type {[name: string, pure: number, memory: number, model: number, redis: number][]} */
const rows = [];
try {
  for (const { name: api, policy, algorithm } of models) {
    const name = `${policy.kind} (${api})`;
    /** @type {import('@mall-api/rate-limit').LimitState | undefined} */
    let state;
    const pure = measureSync((i) => {
      state = decideLimit(state, 1_000_000 + i, policy).state;
    });
    const memory = new MemoryStore();
    const onMemory = await measureAsync((i) => memory.decide(`key-${i % 1000}`, policy), 1);
    const modelStore = new AlgorithmMemoryStore(algorithm);
    const onModel = await measureAsync((i) => modelStore.decide(`key-${i % 1000}`, policy), 1);
    const onRedis = await measureAsync((i) => redisStore.decide(`bench:${name}:${i % 1000}`, policy), 64);
    rows.push([name, pure, onMemory, onModel, onRedis]);
  }
} finally {
  await redisStore.close();
  await redis.stop();
}
/** @param {number} n */
const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(12);
process.stdout.write(
  `${'algorithm'.padEnd(28)}${'pure/s'.padStart(12)}${'memory/s'.padStart(12)}${'model/s'.padStart(12)}` +
    `${'model/memory'.padStart(14)}${'redis/s'.padStart(12)}\n`,
);
for (const [name, pure, memory, model, redisRate] of rows)
  process.stdout.write(
    `${name.padEnd(28)}${fmt(pure)}${fmt(memory)}${fmt(model)}${(model / memory).toFixed(2).padStart(14)}${fmt(redisRate)}\n`,
  );
