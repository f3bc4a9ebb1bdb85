// Entry point `@mall-api/mock-server/testing`: start the mocks for a test run and drive them through
// the control API.
export type { FaultAction, FaultMatch, FaultRule } from '../malls/fault-rules.js';
export type { JournalEntry, JournalFilter } from '../malls/journal.js';
export {
  type ControlClient,
  ControlError,
  createControlClient,
  type Expectation,
  type FaultRequest,
  type ResetTarget,
} from './control-client.js';
export { type StartedMock, type StartMockOptions, startMock } from './start-mock.js';
