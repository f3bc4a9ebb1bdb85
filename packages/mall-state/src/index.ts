// Public entry of @mall-api/mall-state: everything the mocks keep per mall and where it lives —
// clocks, request journals, fault rules, the roster of malls in use and the rate-limit stores, in
// this process's memory (Redis: the `./redis` entry, loaded only when asked for).
export { type Awaitable, andThen } from './malls/awaitable.js';
export {
  createFaultRules,
  type FaultAction,
  type FaultMatch,
  type FaultRule,
  type FaultRules,
  type FaultTarget,
} from './malls/fault-rules.js';
export {
  createJournal,
  defaultJournalLimits,
  type Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalInput,
  type JournalLimits,
} from './malls/journal.js';
export {
  type ClockOffsetStore,
  createMallClocks,
  type MallClocks,
  memoryClockOffsets,
} from './malls/mall-clocks.js';
export {
  createMallRoster,
  type DropMall,
  defaultMallLimits,
  type MallLimits,
  type MallRoster,
} from './malls/mall-roster.js';
export type { MallStateStores } from './malls/mall-state-stores.js';
export { memoryMallStores } from './malls/memory-mall-stores.js';
export { StoreUnavailableError, storeUnavailableMessage } from './malls/store-unavailable.js';
