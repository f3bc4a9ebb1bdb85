// Opens the stateful sandbox (`@mall-api/sandbox`) for the mocks, loading the optional package only
// here, so the plain mock runs without it, over the storage mall-state opens (memory, SQLite or
// PostgreSQL; the sandbox closes it). Its malls follow the mocks' per-mall clocks, refuse fixtures by
// the compiled admin API's body rules and check data against the spec models the mocks serve (never
// the shipped bundles behind their back); the demo mall exists from the start.
import {
  type MallClocks,
  openStorage,
  type SharedMallVersions,
  type StorageChoice,
} from '@mall-api/mall-state';
import type { SandboxMallsOptions } from '@mall-api/sandbox';
import type { SandboxMallsGateway } from '@mall-api/sandbox/protocol';
import type { ApiSpecs } from '@mall-api/spec-model';
import { defaultMallId } from '../http/mall-address.js';
import type { CompiledApi } from '../operations/compiled-api.js';

/** How to run the sandbox (the `sandbox` option of startMockServer / startMockServers). */
export interface SandboxOptions {
  /**
   * `memory` (default), SQLite files in `dataDir` kept across restarts, or the PostgreSQL database
   * at the `postgres` URL, shared by every replica on it.
   */
  store?: StorageChoice;
  /** Fill each new mall with the deterministic sample mall of this seed (default: an empty mall). */
  seed?: number;
  /** Named fixtures a mall can be reset to (the control API's `reset` with `{ fixture }`). */
  fixtures?: Readonly<Record<string, unknown>>;
  /** Mall settings the product rules depend on (default: one domestic shop without age verification). */
  mall?: SandboxMallsOptions['mall'];
  /** Where a PostgreSQL store reports an outage and its end (default: standard error). */
  log?: (message: string) => void;
}

/**
 * Opens the sandbox malls; throws a clear error when `@mall-api/sandbox` is not installed.
 * @param admin the compiled admin API, whose body rules fixtures are checked by
 * @param specs the spec models the mocks serve, which the sandbox answers by
 * @param versions where replicas announce each mall's newest version (Redis), for a PostgreSQL store
 */
export async function loadSandbox(
  options: SandboxOptions,
  clocks: MallClocks,
  admin: CompiledApi,
  specs: ApiSpecs,
  versions?: SharedMallVersions,
): Promise<SandboxMallsGateway> {
  let sandbox: typeof import('@mall-api/sandbox');
  try {
    sandbox = await import('@mall-api/sandbox');
  } catch (error) {
    throw new Error(
      `sandbox mode needs the optional package @mall-api/sandbox (npm install @mall-api/sandbox): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  const { store = 'memory' } = options;
  return sandbox.createSandboxMalls({
    newMall: options.seed === undefined ? 'empty' : { seed: options.seed },
    fixtures: options.fixtures,
    mall: options.mall,
    clockFor: (mallId) => () => clocks.now(mallId),
    malls: [defaultMallId],
    requestRules: (operationId, body) => admin.bodyRules(operationId)(body),
    specs,
    storage: await openStorage(store, { log: options.log, versions }),
  });
}
