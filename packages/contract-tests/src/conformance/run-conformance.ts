// Runs the conformance checks of one API against a server, all derived from the API's bundle: the
// derived requests and paging, the query parameters' declared meanings, the not-found reads (and
// every error answer's code), the body rules, the auth matrix, the stateful sequences and, last
// because it spends the budget, the rate limit. A spent `maxRequests` budget skips what is left.

import { createAnswerChecks } from '@mall-api/mock-server/answer-checks';
import { systemSleep } from '@mall-api/rate-limit';
import { type ApiName, loadSpec } from '@mall-api/spec-model';
import type { Sleep } from '../hooks/pacing.js';
import { authChecks } from './auth-checks.js';
import { bodyRuleChecks } from './body-rule-checks.js';
import type { Check, CheckResult } from './check.js';
import { BudgetSpent, type Credentials, createConformanceClient } from './conformance-client.js';
import { notFoundChecks, withErrorCodes } from './error-codes.js';
import { queryMeaningChecks } from './query-meaning-checks.js';
import { rateLimitChecks } from './rate-limit-checks.js';
import { type CheckContext, requestChecks } from './request-checks.js';
import { sequenceChecks } from './sequence-checks.js';

/** A conformance run. */
export interface ConformanceOptions {
  readonly api: ApiName;
  /** The server (for our mock, one mall's base URL). */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  /** Seeds the generated values (default 1). */
  readonly seed?: number;
  /** At most this many requests (default 5000). */
  readonly maxRequests?: number;
  /** Whether the rate-limit checks may exhaust the budget (default false). */
  readonly spendRateLimit?: boolean;
  /** How to wait (default: real time; against our mock, `mockClockSleep`). */
  readonly sleep?: Sleep;
  /** Only the checks of these operations (and the API-wide ones); default all. */
  readonly operations?: readonly string[];
  /** Called with each result as it comes. */
  readonly onResult?: (result: CheckResult) => void;
}

/** What a run found. */
export interface ConformanceReport {
  readonly api: ApiName;
  readonly baseUrl: string;
  readonly seed: number;
  readonly requests: number;
  readonly results: readonly CheckResult[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/** Runs every conformance check of `options.api`. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const model = await loadSpec(options.api);
  const seed = options.seed ?? 1;
  const client = createConformanceClient({
    api: options.api,
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    credentials: options.credentials,
    maxRequests: options.maxRequests ?? 5000,
    sleep: options.sleep ?? systemSleep,
  });
  const answers = withErrorCodes(model, createAnswerChecks(model, options.api));
  const context: CheckContext = { model, client, answers, seed };
  const only = options.operations ? new Set(options.operations) : undefined;
  const checks: Check[] = [
    ...requestChecks(context),
    ...queryMeaningChecks(context),
    ...notFoundChecks(context),
    ...bodyRuleChecks(context),
    ...authChecks(context),
    ...sequenceChecks(context),
    ...rateLimitChecks(context, options.api, options.spendRateLimit === true),
  ].filter((check) => !only || only.has(check.subject) || check.subject === options.api);
  const results: CheckResult[] = [];
  let spent: BudgetSpent | undefined;
  for (const check of checks) {
    const result = await runCheck(check, spent);
    if (result.spent) spent = result.spent;
    results.push(result.result);
    options.onResult?.(result.result);
  }
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  return {
    api: options.api,
    baseUrl: options.baseUrl,
    seed,
    requests: client.sent,
    results,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
  };
}

async function runCheck(
  check: Check,
  spent: BudgetSpent | undefined,
): Promise<{ result: CheckResult; spent?: BudgetSpent }> {
  const { group, subject, name } = check;
  const result = (status: CheckResult['status'], details: readonly string[]): CheckResult => ({
    group,
    subject,
    name,
    status,
    details,
  });
  if (spent) return { result: result('skipped', [spent.message]) };
  try {
    const outcome = await check.run();
    if ('skipped' in outcome) return { result: result('skipped', [outcome.skipped]) };
    return { result: result(outcome.problems.length ? 'failed' : 'passed', outcome.problems) };
  } catch (error) {
    if (error instanceof BudgetSpent) return { result: result('skipped', [error.message]), spent: error };
    const message = error instanceof Error ? error.message : String(error);
    return { result: result('failed', [`the check could not run: ${message}`]) };
  }
}
