// Public entry of @mall-api/sandbox: the stateful sandbox malls behind the mock APIs.

export { type TableName, tableNames } from '@mall-api/mall-state';
export type { MallSettings } from './catalogue/product-service.js';
export { placementTargets, type RequestRules, recordSections } from './malls/fixtures.js';
export type { MallStartsOptions } from './malls/mall-starts.js';
export {
  createSandboxMalls,
  type SandboxMalls,
  type SandboxMallsOptions,
} from './malls/sandbox-malls.js';
export type { MallSnapshot } from './malls/snapshot.js';
export type {
  Found,
  ItemOutcome,
  MallCounts,
  MallOutcome,
  MallStart,
  PartlyApplied,
  Refusal,
  RefusalReason,
  SandboxApi,
  SandboxCall,
  SandboxGateway,
  SandboxMallsGateway,
  SandboxOutcome,
  Violation,
  ViolationLocation,
  Written,
} from './protocol.js';
