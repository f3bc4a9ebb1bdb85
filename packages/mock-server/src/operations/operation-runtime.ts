// What the mock needs per operation to answer requests — its compiled request validator, its
// cross-parameter rules, its body rules and its prepared responses — worked out on the operation's first request
// and kept. Prepared responses come from the build's file when it matches the spec; otherwise
// Prism's engine (created once, on first need) prepares them.
import type { OperationEntry, SpecModel } from '@mall-api/spec-model';
import { distDirectory } from '../process/dist-directory.js';
import { type KnownIds, knownExampleIds } from '../responses/example-ids.js';
import type { ResponsePreference } from '../responses/preferences.js';
import {
  loadPreparedApi,
  type PreparedApi,
  type PreparedResponse,
  preparedFile,
  preparedKey,
  prepareOperation,
} from '../responses/prepared-responses.js';
import type { PrismEngine } from '../responses/prism-engine.js';
import { type BodyRuleCheck, compileBodyRules } from '../validation/body-rules.js';
import { type CrossParameterCheck, compileCrossParameterRules } from '../validation/cross-parameter-rules.js';
import { type RequestValidator, requestValidatorCompiler } from '../validation/request-validator.js';

/** The compiled pieces of one operation. */
export interface CompiledOperation {
  readonly validate: RequestValidator;
  readonly crossParameters: CrossParameterCheck;
  /** The rule extensions on the operation's request body schema. */
  readonly bodyRules: BodyRuleCheck;
  /** The prepared response for a preference, if one was documented. */
  readonly prepared: (preference: ResponsePreference) => PreparedResponse | undefined;
  /** The path ids the spec's examples know (example mode answers others with 404). */
  readonly knownIds: KnownIds;
}

/** Hands out compiled operations, compiling each once. */
export interface OperationRuntime {
  (operation: OperationEntry): Promise<CompiledOperation>;
  /** The operation compiled already, if it is (lets the request path skip an await). */
  compiled(operation: OperationEntry): CompiledOperation | undefined;
}

/**
 * Creates the runtime for one API's spec.
 * @param bodyRules an operation's body rules (default: worked out from `spec` when it compiles)
 */
export function createOperationRuntime(
  spec: SpecModel,
  engine: () => Promise<PrismEngine>,
  preparedApi: PreparedApi | undefined,
  bodyRules: (operationId: string) => BodyRuleCheck = (operationId) => compileBodyRules(spec, operationId),
): OperationRuntime {
  let compileValidator: ReturnType<typeof requestValidatorCompiler> | undefined;
  const cache = new Map<OperationEntry, Promise<CompiledOperation>>();
  const compile = async (operation: OperationEntry): Promise<CompiledOperation> => {
    compileValidator ??= requestValidatorCompiler(spec);
    const table =
      preparedApi?.operations[operation.operationId] ??
      (await prepareOperation(await engine(), spec, operation));
    return {
      validate: compileValidator(operation),
      crossParameters: compileCrossParameterRules(operation),
      bodyRules: bodyRules(operation.operationId),
      prepared: (preference) => table[preparedKey(preference)],
      knownIds: knownExampleIds(spec, operation),
    };
  };
  const done = new Map<OperationEntry, CompiledOperation>();
  const runtime = (operation: OperationEntry) => {
    let compiled = cache.get(operation);
    if (!compiled) {
      compiled = compile(operation).then((ready) => {
        done.set(operation, ready);
        return ready;
      });
      cache.set(operation, compiled);
    }
    return compiled;
  };
  return Object.assign(runtime, { compiled: (operation: OperationEntry) => done.get(operation) });
}

/**
 * The runtime of one API's spec with the build's prepared responses (when they match the spec)
 * and Prism's engine, loaded only on first need (an optional peer: see below).
 */
export async function apiRuntime(
  name: string,
  spec: SpecModel,
  bodyRules?: (operationId: string) => BodyRuleCheck,
): Promise<OperationRuntime> {
  let engine: Promise<PrismEngine> | undefined;
  const lazyEngine = () => {
    // Prism is loaded only for a spec whose responses the build did not prepare (importing it costs
    // seconds); it is an optional peer dependency, so the published mock runs without it.
    engine ??= import('../responses/prism-engine.js').then(
      ({ createPrismEngine }) => createPrismEngine(spec.document),
      (cause: unknown) => {
        throw new Error(
          `the ${name} responses of this spec were not prepared at build time; preparing them needs Prism (npm install @stoplight/prism-http @stoplight/prism-core fp-ts)`,
          { cause },
        );
      },
    );
    return engine;
  };
  const prepared = await loadPreparedApi(preparedFile(distDirectory, name), spec.digest);
  return createOperationRuntime(spec, lazyEngine, prepared, bodyRules);
}
