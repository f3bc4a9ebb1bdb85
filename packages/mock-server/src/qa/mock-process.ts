// The mock process of the CommonJS `startMock` (commonjs.ts), forked with an IPC channel: it
// receives the start options as its first message, starts the mocks (serveMocks), answers with
// their base URLs and OAuth scopes (or the start's error message), and stops them and exits when
// the parent disconnects — on `close()` or when the parent process ends.
import { type StartMockOptions, serveMocks } from './start-mock.js';

/** What the parent hears once the mocks are up, or why they are not. */
export type MockProcessReady =
  | { urls: Record<string, string>; scopes: readonly string[] }
  | { error: string };

process.once('message', async (options: StartMockOptions) => {
  try {
    const served = await serveMocks(options);
    process.once('disconnect', () => {
      void served.close().then(() => process.exit(0));
    });
    process.send?.({ urls: served.urls, scopes: served.scopes } satisfies MockProcessReady);
  } catch (error) {
    process.send?.({
      error: error instanceof Error ? error.message : String(error),
    } satisfies MockProcessReady);
    process.disconnect?.();
    process.exitCode = 1;
  }
});
