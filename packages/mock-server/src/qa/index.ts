// Entry point `@mall-api/mock-server/testing`: start the mocks for a test run and drive them through
// the control API.
export type { FaultAction, FaultMatch, FaultRule, JournalEntry, JournalFilter } from '@mall-api/mall-state';
export type {
  CoverageReport,
  Measure,
  OperationCoverage,
  ResponseCoverage,
  RuleCoverage,
  Threshold,
  UndocumentedStatus,
} from '../api-coverage/coverage-report.js';
export {
  type ControlClient,
  ControlError,
  type CoverageRequest,
  createControlClient,
  type DuplicateExpectation,
  type Duplicates,
  type Expectation,
  type FaultRequest,
  type ResetTarget,
} from './control-client.js';
export {
  type EventFilter,
  type EventReceiver,
  type ReceivedEvent,
  testWebhookKey,
} from './event-receiver.js';
export { type StartedMock, type StartMockOptions, startMock } from './start-mock.js';
