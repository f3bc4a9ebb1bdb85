// Public entry of @mall-api/contract-tests: run the Dredd contract tests of an API from code.
export { type ApiFacts, apiFacts, isApiName, scopesOutside } from './api-facts.js';
export { type ContractResult, type RunContractOptions, runContract } from './run-contract.js';
export type { ContractSettings, OAuthApp } from './settings.js';
export { type ContractTarget, prepareTarget, type TargetOptions, targetOptionsFromEnv } from './targets.js';
export { obtainAccessToken, type TokenFlowOptions } from './token-flow.js';
