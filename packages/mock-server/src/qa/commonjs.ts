// The CommonJS entry of `@mall-api/mock-server/testing` (built to dist/cjs/ by
// tools/src/commonjs-build.mjs) for loaders that cannot require() an ES module, such as jest's
// default mode: the same exports as index.ts, but `startMock` runs the mocks in a child Node process
// (mock-process.ts), since the mock server is an ES module all the way down; the handle speaks HTTP
// to it as the in-process one does. A `clock` function cannot cross into that process.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MockProcessReady } from './mock-process.js';
import type { StartMockOptions } from './start-mock.js';
import { type StartedMock, startedMock } from './started-mock.js';

export type { FaultAction, FaultMatch, FaultRule, JournalEntry, JournalFilter } from '@mall-api/mall-state';
export type { CoverageReport } from '../api-coverage/coverage-report.js';
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
export type { StartedMock, StartMockOptions };

/** The ES mock process, from `dist/cjs/qa/`, where this module runs as CommonJS. */
const mockProcess = fileURLToPath(new URL('../../qa/mock-process.js', import.meta.url));

/**
 * Starts the mocks for a test run, in a child process.
 *
 * @throws {TypeError} when `options.clock` is given (a function cannot reach the child process).
 */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  if (options.clock)
    throw new TypeError(
      'startMock() from require() cannot take a clock function; import the ES module to pass one',
    );
  const child = fork(mockProcess, [], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<MockProcessReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as MockProcessReady));
    child.once('error', reject);
    void exited.then(() => reject(new Error('the mock process ended before the mocks started')));
    child.send(options);
  });
  if ('error' in ready) {
    await exited;
    throw new Error(`the mocks did not start: ${ready.error}`);
  }
  return startedMock({
    urls: ready.urls,
    scopes: ready.scopes,
    controlToken: options.controlToken,
    close: async () => {
      if (child.connected) child.disconnect();
      await exited;
    },
  });
}
