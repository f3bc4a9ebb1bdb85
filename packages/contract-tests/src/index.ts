// Public entry of @mall-api/contract-tests: run the Dredd contract tests or the conformance runner
// of an API from code.
export { type ApiFacts, apiFacts, isApiName, scopesOutside } from './api-facts.js';
export type { CheckResult } from './conformance/check.js';
export type { CredentialKind, Credentials } from './conformance/conformance-client.js';
export { junitReport, markdownReport } from './conformance/conformance-report.js';
export * from './conformance/local-target.js';
export { mockClockSleep } from './conformance/mock-clock.js';
export * from './conformance/run-conformance.js';
export { type ContractResult, type RunContractOptions, runContract } from './run-contract.js';
export type { ContractSettings, OAuthApp } from './settings.js';
export {
  type ContractTarget,
  mockTarget,
  prepareTarget,
  type RunningMockTarget,
  type TargetOptions,
  targetOptionsFromEnv,
} from './targets.js';
export { obtainAccessToken, type TokenFlowOptions } from './token-flow.js';
