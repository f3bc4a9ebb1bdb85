// The default in-process rate-limit store for any policy: the algorithm memory store run by all
// four algorithms (`anyLimitAlgorithm`, which picks one by the policy's kind), so one store serves
// every API, as the server limiter needs. Not shared between processes: use the Redis store for
// that. A client of one API uses a store run by its API's algorithm alone.
import { AlgorithmMemoryStore, type MemoryStoreOptions } from './algorithm-memory-store.js';
import { anyLimitAlgorithm, type LimitState } from './limit-state.js';
import type { LimitPolicy } from './policy.js';

/** A `RateLimitStore` in this process's memory, for any policy. */
export class MemoryStore extends AlgorithmMemoryStore<LimitPolicy, LimitState> {
  constructor(options: MemoryStoreOptions = {}) {
    super(anyLimitAlgorithm, options);
  }
}
