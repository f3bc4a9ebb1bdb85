// What the runner tells the hooks about a contract run. The runner (run-contract.ts) passes it to
// the Dredd process in the CONTRACT_SETTINGS environment variable; the hooks read it back.

import type { ApiName } from '@mall-api/spec-model';

/** The demo OAuth app the hooks use for the OAuth transactions (our mock only). */
export interface OAuthApp {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

/** One contract run, as the hooks see it. */
export interface ContractSettings {
  readonly api: ApiName;
  /** The API's bundled JSON document. */
  readonly specFile: string;
  readonly baseUrl: string;
  /** Our own mock: statuses it cannot be led to are asked for with `Prefer: code=…`. */
  readonly targetIsMock: boolean;
  /** A stateful sandbox: the hooks create what each transaction acts on. */
  readonly sandbox: boolean;
  /** `Authorization` values, used in turn (one per transaction). */
  readonly authorizations: readonly string[];
  /**
   * The mall each of `authorizations` reads, in the same order (one for all when it is one long):
   * a query parameter naming the mall read (`x-query` role `mall`) is sent with it.
   */
  readonly mallIds?: readonly string[];
  /** `Authorization` values lacking the API's scopes, for the 403 transactions (none: skipped). */
  readonly forbiddenAuthorizations: readonly string[];
  /** A registered app, for the OAuth transactions (none: skipped). */
  readonly oauth?: OAuthApp;
  /** `baseUrl` is one mall of our mock: the pacing moves that mall's clock instead of waiting. */
  readonly mockClock?: boolean;
}

/** The settings of the current Dredd process. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): ContractSettings {
  if (!env.CONTRACT_SETTINGS)
    throw new Error('CONTRACT_SETTINGS is not set: run the hooks through runContract');
  return JSON.parse(env.CONTRACT_SETTINGS) as ContractSettings;
}
