// The mock's view of the stateful sandbox (`@mall-api/sandbox`): which operations it answers, and
// one call per request with the already-converted parameters, answered as a value — a status and
// body, or a refusal with the violations — never as an exception. A sandbox kept in PostgreSQL
// answers with promises (and reports whether its database answers, for `/__ready`); one in memory
// or SQLite answers at once. Declared here structurally so the plain mock compiles and runs
// without the sandbox package installed.
import type { ApiName } from './api-profiles.js';
import type { Violation } from './error-envelope.js';

/** One request handed to the sandbox after every check of the front layer. */
export interface SandboxCall {
  readonly api: ApiName;
  readonly operationId: string;
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** The mall of the caller's token (admin, analytics); undefined for the collection API. */
  readonly mallId: string | undefined;
}

/** The sandbox's answer to a call. */
export type SandboxResult =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly body: unknown;
      /** The body already serialized as JSON (answers the sandbox keeps); sent as is when given. */
      readonly json?: string;
    }
  | {
      readonly kind: 'refusal';
      /** 503: the sandbox's store (PostgreSQL) is unavailable. */
      readonly status: 404 | 409 | 422 | 503;
      readonly message: string;
      readonly violations: readonly Violation[];
    };

/** The sandbox as the answer stage uses it. */
export interface SandboxGateway {
  /** Whether the sandbox answers this operation (else the documented example does). */
  handles(api: ApiName, operationId: string): boolean;
  handle(call: SandboxCall): SandboxResult | Promise<SandboxResult>;
}

/** How a mall is (re)created: from the sample data of a seed, empty, or from a named fixture. */
export type MallStart = { readonly seed: number } | 'empty' | { readonly fixture: string };

/** Outcome of a control operation on a mall's data. */
export type MallChange =
  | { readonly ok: true; readonly counts?: Readonly<Record<string, number>> }
  | {
      readonly ok: false;
      /** 409: the mall changed meanwhile (asking again may succeed); else 422. */
      readonly status?: 409;
      readonly message: string;
      readonly violations: readonly Violation[];
    };

/**
 * The sandbox's malls, as the control API uses them. A reset, fixture or restore settles once the
 * mall holds its new records (built without holding the process; changes to one mall run in turn).
 */
export interface SandboxMallsGateway extends SandboxGateway {
  reset(mallId: string, to?: MallStart): MallChange | Promise<MallChange>;
  loadFixture(mallId: string, fixture: unknown): MallChange | Promise<MallChange>;
  /** The mall's records (or a promise of them); undefined for a mall that does not exist. */
  snapshot(mallId: string): unknown;
  restore(mallId: string, snapshot: unknown): MallChange | Promise<MallChange>;
  mallIds(): string[] | Promise<string[]>;
  /** Removes a mall and its records; false when it did not exist. */
  drop(mallId: string): boolean | Promise<boolean>;
  /** Whether the sandbox's store answers now (a shared database); absent: always ready. */
  ready?(): Promise<boolean>;
  close(): void | Promise<void>;
}
