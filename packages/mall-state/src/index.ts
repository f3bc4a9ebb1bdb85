// Public entry of @mall-api/mall-state: everything kept per mall and where it lives — clocks,
// request journals, fault rules, the roster of malls in use and the rate-limit stores in this
// process's memory (Redis: the `./redis` entry, loaded only when asked for), and the storage of the
// sandbox malls' records (memory, SQLite or PostgreSQL, drivers loaded only when chosen).
export {
  type AnswerLoss,
  createFaultRules,
  deliveryTarget,
  type FaultAction,
  type FaultErrorRate,
  type FaultLatency,
  type FaultMatch,
  type FaultRule,
  type FaultRules,
  type FaultTarget,
  type FiredFault,
} from './malls/fault-rules.js';
export {
  createJournal,
  defaultJournalLimits,
  type Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalInput,
  type JournalLimits,
  maxRefusedBy,
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
  expireEvery,
  type MallLimits,
  type MallRoster,
  type StillUnused,
} from './malls/mall-roster.js';
export { type MallStateStores, memoryMallStores } from './malls/mall-state-stores.js';
export { StoreUnavailableError, storeUnavailableMessage } from './malls/store-unavailable.js';
export { memoryStorage } from './store/local-malls.js';
export {
  type CatchUpHooks,
  type MallStorage,
  type MallVersion,
  type Purged,
  runAsWrite,
  type SharedMallVersions,
  type StagedMall,
} from './store/mall-storage.js';
export { type OpenStorageOptions, openStorage, type StorageChoice } from './store/open-storage.js';
export type { PostgresMalls } from './store/postgres-malls.js';
export {
  clearStore,
  createMemoryStore,
  type EventTableName,
  eventTableNames,
  type SandboxStore,
  type StoredRecord,
  type StoreJournal,
  type StoreTable,
  type TableName,
  tableNames,
} from './store/store.js';
export { nextTurn } from './support/next-turn.js';
export { type OneAtATime, oneAtATime } from './support/one-at-a-time.js';
