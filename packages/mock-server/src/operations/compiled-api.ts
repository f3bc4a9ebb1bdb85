// One API compiled from a spec, once, at the composition root: everything the stages, the sandbox
// and the OAuth authority need, derived from the given spec model (validators, rules and prepared
// responses per operation on first use, the rate limit, HTTPS-only, date versions, OAuth settings,
// demo credentials). `compileApi` reads no spec of its own; `servedApi` reads a shipped bundle only
// for an API it is not given, so a test that passes a changed copy sees every rule follow.
import { type ApiLimit, apiLimitFromSpec } from '@mall-api/rate-limit';
import {
  type ApiSpecs,
  type ApiVersions,
  declaredApiVersionsOf,
  httpsOnlyStatusOf,
  loadSpecs,
  type SpecModel,
} from '@mall-api/spec-model';
import { type ApiName, type ApiProfile, apiProfiles } from '../identity/api-profiles.js';
import { type ClientCredential, demoCollectionCredentials } from '../oauth/demo-credentials.js';
import { type SpecOAuth, specOAuth } from '../oauth/oauth-settings.js';
import { type BodyRuleCheck, compileBodyRules } from '../validation/body-rules.js';
import { apiRuntime, type OperationRuntime } from './operation-runtime.js';

/** Date versions chosen by a request header (`x-api-versions` with a header). */
export type HeaderVersions = ApiVersions & { readonly header: string };

/** One API as its spec describes it, ready to serve. */
export interface CompiledApi {
  readonly profile: ApiProfile;
  readonly spec: SpecModel;
  /** The body rules of an operation (`x-*` rule extensions on its request schema), worked out once. */
  readonly bodyRules: (operationId: string) => BodyRuleCheck;
  /** Each operation's compiled validator, rules and prepared responses. */
  readonly runtime: OperationRuntime;
  /** The API's rate limit and what it counts per (`x-rate-limit`). */
  readonly limit: ApiLimit;
  /** The status a plain-HTTP request is refused with (`x-https-only`); undefined when HTTP is accepted. */
  readonly httpsOnly: number | undefined;
  /** The described date versions chosen by a header, if the spec describes any (`x-api-versions`). */
  readonly versions: HeaderVersions | undefined;
  /** OAuth lifetimes, scope aliases and offered scopes (the scope check reads the aliases). */
  readonly oauth: SpecOAuth;
  /** The demo Basic clients with the scopes this spec's operations require. */
  readonly demoCredentials: readonly ClientCredential[];
}

/** The described versions a header chooses; undefined for a spec without `x-api-versions` or a header. */
function headerVersionsOf(spec: SpecModel): HeaderVersions | undefined {
  const versions = declaredApiVersionsOf(spec.document);
  return versions?.header && versions.dates.length > 0 ? { ...versions, header: versions.header } : undefined;
}

/** Compiles the API `name` from `spec` (its operations compile on their first request). */
export async function compileApi(name: ApiName, spec: SpecModel): Promise<CompiledApi> {
  const checks = new Map<string, BodyRuleCheck>();
  const bodyRules = (operationId: string) => {
    let check = checks.get(operationId);
    if (!check) {
      check = compileBodyRules(spec, operationId);
      checks.set(operationId, check);
    }
    return check;
  };
  return {
    profile: apiProfiles[name],
    spec,
    bodyRules,
    runtime: await apiRuntime(name, spec, bodyRules),
    limit: apiLimitFromSpec(spec.document, name),
    httpsOnly: httpsOnlyStatusOf(spec.document),
    versions: headerVersionsOf(spec),
    oauth: specOAuth(spec.document),
    demoCredentials: demoCollectionCredentials(spec),
  };
}

/** How a server of one API is given its spec: compiled already, as a model, and the other APIs' models. */
export interface ServedSpecOptions {
  readonly compiled?: CompiledApi;
  readonly spec?: SpecModel;
  readonly specs?: Partial<Record<ApiName, SpecModel>>;
}

/**
 * The compiled API a server of `name` serves and the spec model of every API (the control API and
 * the sandbox read them): its own spec (the compiled one's, else `spec`, else `specs`' entry)
 * wins over `specs`, so the two cannot disagree; the shipped bundles fill in the rest.
 */
export async function servedApi(
  name: ApiName,
  { compiled, spec, specs: given = {} }: ServedSpecOptions,
): Promise<{ api: CompiledApi; specs: ApiSpecs }> {
  const specs = await loadSpecs({ ...given, [name]: compiled?.spec ?? spec ?? given[name] });
  return { api: compiled ?? (await compileApi(name, specs[name])), specs };
}
