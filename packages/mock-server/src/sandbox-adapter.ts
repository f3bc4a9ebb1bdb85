// The one place the front layer talks to the sandbox (`@mall-api/sandbox`, loaded only in sandbox
// mode): `loadSandbox` opens the sandbox malls from the mock's sandbox options, and
// `answerFromSandbox` hands a validated request to them — its path and query parameters converted
// by the spec (parameter-coercion.ts, as the validator converts them) — and turns the value they
// answer into the reply: the body as it is, or a refusal in the API's error envelope. Until the
// front layer routes each caller to its own mall, every admin and analytics call goes to one
// shared mall, {@link sharedSandboxMall}, which is also the collection's one store.
import type { SandboxMalls, SandboxMallsOptions } from '@mall-api/sandbox';
import type { ApiName } from './api-profiles.js';
import { bodyRuleViolations } from './body-rules.js';
import { errorEnvelope } from './error-envelope.js';
import { coerceParameter } from './parameter-coercion.js';
import { type Json, type OperationEntry, resolveRef } from './spec-document.js';

/** The mall every sandbox call of the mock goes to (the collection's `store_id`). */
export const sharedSandboxMall = 'sandboxmall';

/** How to run the sandbox (the `sandbox` option of startMockServer / startMockServers). */
export interface SandboxOptions {
  /** `memory` (default) or SQLite files in `dataDir`, kept across restarts. */
  store?: 'memory' | { dataDir: string };
  /** Fill a new mall with the deterministic sample mall of this seed (default: an empty mall). */
  seed?: number;
  /** Mall settings the product rules depend on (default: one domestic shop without age verification). */
  mall?: SandboxMallsOptions['mall'];
  /** Clock for created and updated dates (tests pass a fixed one). */
  clock?: () => number;
}

/** Opens the sandbox malls; the mock runs without `@mall-api/sandbox` until this is called. */
export async function loadSandbox(options: SandboxOptions): Promise<SandboxMalls> {
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
  const { clock } = options;
  return sandbox.createSandboxMalls({
    ...(options.store ? { store: options.store } : {}),
    newMall: options.seed === undefined ? 'empty' : { seed: options.seed },
    ...(options.mall ? { mall: options.mall } : {}),
    ...(clock ? { clockFor: () => clock } : {}),
    malls: [sharedSandboxMall],
    requestRules: (operationId, body) => bodyRuleViolations(operationId, body),
  });
}

/** The raw parameters of one location converted by their schemas (absent ones left out). */
function converted(
  document: Record<string, Json>,
  operation: OperationEntry,
  location: 'path' | 'query',
  raw: Readonly<Record<string, string | string[]>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    const value = raw[parameter.name];
    if (parameter.in !== location || value === undefined) continue;
    const items = parameter.schema.items;
    values[parameter.name] = coerceParameter(
      parameter,
      value,
      items === undefined ? undefined : resolveRef(document, items),
    );
  }
  return values;
}

/** A request the sandbox answers, as the front layer has read and validated it. */
export interface SandboxRequest {
  readonly api: ApiName;
  readonly document: Record<string, Json>;
  readonly operation: OperationEntry;
  /** Decoded path parameters. */
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly body: unknown;
}

/** The sandbox's answer as a reply, or undefined when it does not answer this operation. */
export function answerFromSandbox(
  sandbox: SandboxMalls,
  request: SandboxRequest,
): { status: number; body: unknown } | undefined {
  const { api, document, operation } = request;
  if (!sandbox.handles(api, operation.operationId)) return undefined;
  const result = sandbox.handle({
    api,
    operationId: operation.operationId,
    path: converted(document, operation, 'path', request.pathParameters),
    query: converted(document, operation, 'query', request.query),
    body: request.body,
    mallId: api === 'collection' ? undefined : sharedSandboxMall,
  });
  if (result.kind === 'answer') return { status: result.status, body: result.body };
  const details = result.violations.length > 0 ? { violations: result.violations } : {};
  return { status: result.status, body: errorEnvelope(result.status, result.message, details) };
}
