// Public entry of @mall-api/sandbox: the stateful sandbox malls behind the mock APIs.
export type { MallSettings } from './catalogue/product-service.js';
export { placementTargets, type RequestRules, recordSections } from './malls/fixtures.js';
export type { MallCounts, MallOutcome, RefusedChange } from './malls/mall-outcome.js';
export {
  createSandboxMalls,
  type MallStart,
  type SandboxMalls,
  type SandboxMallsOptions,
  type SharedSandboxMallsOptions,
} from './malls/sandbox-malls.js';
export type { SharedSandboxMalls } from './malls/shared-sandbox-malls.js';
export type { MallSnapshot } from './malls/snapshot.js';
export type {
  SandboxAnswer,
  SandboxApi,
  SandboxCall,
  SandboxRefusal,
  SandboxResult,
  Violation,
  ViolationLocation,
} from './sandbox-result.js';
export type { TableName } from './store/store.js';
export { tableNames } from './store/store.js';
