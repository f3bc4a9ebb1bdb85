// Sandbox malls for the package's view and odd-input tests, opened in one place and closed together
// after a file's tests, and calls on one mall as the front layer hands them over, every answered
// body checked against the operation's documented success responses. Not built, not shipped.
import { type ApiSpecs, loadSpecs } from '@mall-api/spec-model';
import { createSandboxMalls, type SandboxMalls, type SandboxMallsOptions } from '../malls/sandbox-malls.js';
import type { Refusal, SandboxApi, SandboxCall, SandboxOutcome } from '../protocol.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; their schema is checked by Ajv
export type Body = Record<string, any>;
/** The parts of a call a test gives (the rest default to none). */
export type CallParts = Partial<Pick<SandboxCall, 'path' | 'query' | 'body'>>;

const opened: SandboxMalls[] = [];
let shipped: Promise<ApiSpecs> | undefined;
/** The shipped spec models (loaded once per test file). */
export const shippedSpecs = (): Promise<ApiSpecs> => {
  shipped ??= loadSpecs();
  return shipped;
};

/** A call of the collection API (whose clients carry no mall) with `query`. */
export const collectionCall = (operationId: string, query: Record<string, unknown> = {}): SandboxCall => ({
  api: 'collection',
  operationId,
  path: {},
  query,
  body: undefined,
  mallId: undefined,
});

/** New in-memory sandbox malls (as `options` say), closed by `closeTestMalls`. */
export async function openTestMalls(options: SandboxMallsOptions = {}): Promise<SandboxMalls> {
  const malls = await createSandboxMalls(options);
  opened.push(malls);
  return malls;
}

/** Closes every sandbox opened by `openTestMalls` so far. */
export async function closeTestMalls(): Promise<void> {
  await Promise.all(opened.splice(0).map((malls) => malls.close()));
}

/** Fails unless `body` matches one of the JSON success responses the operation documents. */
function expectDocumented(specs: ApiSpecs, api: SandboxApi, operationId: string, body: unknown): void {
  const spec = specs[api];
  const operation = spec.operation(operationId);
  if (!operation) throw new Error(`no ${api} operation ${operationId}`);
  const failures = operation.responseCodes
    .filter((code) => /^2\d\d$/.test(code))
    .map((code) => {
      const schema = (spec.resolve(operation.responses[code]).content as Body)['application/json'].schema;
      const validate = spec.schemas().compile(schema);
      return validate(body) ? undefined : `${code}: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
    });
  if (!failures.includes(undefined))
    throw new Error(`${operationId} answered an undocumented body: ${failures}`);
}

/** Calls on mall `mallId` of `malls`, answered bodies checked against `specs`. */
export function mallCalls(malls: SandboxMalls, mallId: string, specs: ApiSpecs) {
  const handle = (api: SandboxApi, operationId: string, parts: CallParts = {}): Promise<SandboxOutcome> =>
    malls.handle({
      api,
      operationId,
      path: {},
      query: {},
      body: undefined,
      mallId: api === 'collection' ? undefined : mallId,
      ...parts,
    });
  /** The answered body of a call (failing the test on a refusal). */
  const answered = async (api: SandboxApi, operationId: string, parts: CallParts = {}): Promise<Body> => {
    const outcome = await handle(api, operationId, parts);
    if (!outcome.ok) throw new Error(`${operationId} refused: ${outcome.message}`);
    expectDocumented(specs, api, operationId, outcome.body);
    return outcome.body as Body;
  };
  /** The refusal of a call (failing the test when it was answered). */
  const refused = async (operationId: string, parts: CallParts = {}): Promise<Refusal> => {
    const outcome = await handle('admin', operationId, parts);
    if (outcome.ok) throw new Error(`${operationId} was not refused: ${JSON.stringify(outcome.body)}`);
    return outcome;
  };
  const admin = (operationId: string, parts: CallParts = {}) => answered('admin', operationId, parts);
  return {
    malls,
    handle,
    answered,
    refused,
    admin,
    count: async (operationId: string, parts: CallParts = {}) =>
      (await admin(operationId, parts)).count as number,
    createCategory: async (request: Body) =>
      (await admin('createCategory', { body: { shop_no: 1, request } })).category as Body,
    createProduct: async (request: Body) =>
      (await admin('createProduct', { body: { shop_no: 1, request } })).product as Body,
  };
}

/** Calls on mall `mallId` of new sandbox malls (empty malls by default, as the mocks start them). */
export async function openMall(mallId: string, options: SandboxMallsOptions = {}) {
  const malls = await openTestMalls({ newMall: 'empty', ...options });
  return mallCalls(malls, mallId, await shippedSpecs());
}
