// The test helper for vitest or jest: `startMock()` starts the mock APIs on free ports (stateful by
// default) in this process, and hands back the handle of started-mock.ts (base URLs, a per-mall
// base URL builder, the demo credentials, a token helper, the control client and, when asked, a
// receiver of the malls' events). Call `close()` in `afterAll`. `serveMocks` is the same start, for the mock process of the CommonJS entry.

import type { MallLimits } from '@mall-api/mall-state';
import { type ApiName, apiNames } from '@mall-api/spec-model';
import { startMockServers } from '../server/mock-server.js';
import { openEventReceiver, testWebhookKey } from './event-receiver.js';
import { type StartedMock, startedMock } from './started-mock.js';

export type { StartedMock } from './started-mock.js';

/** Options of {@link startMock}. */
export interface StartMockOptions {
  /** The APIs to serve (default: all three). The token helper needs `admin`. */
  apis?: readonly ApiName[];
  /** Stateful sandbox malls (default) or `false` for answers from the spec's examples only. */
  sandbox?: boolean;
  /** The seed of the sample data every new mall starts from (default 1). */
  seed?: number;
  /** Require this token on control calls. */
  controlToken?: string;
  /** Browser origins whose pages may call the control API (default: the docs site's, `http://127.0.0.1:8080` and `http://localhost:8080`). */
  allowedOrigins?: readonly string[];
  /** The largest API request body, in bytes (default 1 MiB); over it is a 413. */
  maxBodyBytes?: number;
  /** The largest control request body, in bytes (default 16 MiB); over it is a 413. */
  maxControlBodyBytes?: number;
  /** Base time of every mall's clock. */
  clock?: () => number;
  /** Named fixtures a mall can be reset to (`control.reset(mall, { fixture: name })`). */
  fixtures?: Readonly<Record<string, unknown>>;
  /** The cap on malls in use and their idle expiry (defaults: 200 malls, one hour). */
  mallLimits?: MallLimits;
  /** Keep the state shared between requests in Redis (`redis://…`), as `--redis` does. */
  redis?: string;
  /**
   * Deliver the sandbox malls' events: `true` opens a receiver in the test (`mock.events`) that
   * every mall's events go to; or the URL (and webhook key) of a receiver of your own.
   */
  events?: boolean | { readonly receiver: string; readonly key?: string };
  /** Any host may receive events, not only this machine and private networks. */
  eventsToAnyHost?: boolean;
}

/**
 * Starts the mock servers `options` ask for; their base URLs, the OAuth scopes they grant, and how
 * to stop them.
 */
export async function serveMocks(options: StartMockOptions): Promise<{
  urls: Partial<Record<ApiName, string>>;
  scopes: readonly string[];
  close: () => Promise<void>;
}> {
  const apis = options.apis ?? apiNames;
  const served = await startMockServers({
    apis,
    ports: Object.fromEntries(apis.map((api) => [api, 0])),
    sandbox: options.sandbox === false ? undefined : { seed: options.seed ?? 1, fixtures: options.fixtures },
    mallLimits: options.mallLimits,
    redis: options.redis,
    maxBodyBytes: options.maxBodyBytes,
    control: {
      token: options.controlToken,
      allowedOrigins: options.allowedOrigins,
      maxBodyBytes: options.maxControlBodyBytes,
    },
    clock: options.clock,
    events:
      typeof options.events === 'object'
        ? {
            receiver: { url: options.events.receiver, key: options.events.key || undefined },
            anyTarget: options.eventsToAnyHost,
          }
        : undefined,
  });
  return {
    urls: Object.fromEntries(served.mocks.map((mock) => [mock.api, mock.url])),
    scopes: served.oauth.scopes,
    close: () => served.close(),
  };
}

/** Starts the mocks for a test run. */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  if (options.events !== true)
    return startedMock({ ...(await serveMocks(options)), controlToken: options.controlToken });
  const receiver = await openEventReceiver();
  try {
    const served = await serveMocks({ ...options, events: { receiver: receiver.url, key: testWebhookKey } });
    return startedMock({
      ...served,
      controlToken: options.controlToken,
      events: receiver,
      close: async () => {
        await served.close();
        await receiver.close();
      },
    });
  } catch (error) {
    await receiver.close();
    throw error;
  }
}
