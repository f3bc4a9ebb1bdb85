// The rate limit as the spec's `x-rate-limit` states it, measured from outside (only with
// `--spend-rate-limit`): after a full recovery a burst is admitted up to the limit (plus what
// refilled meanwhile) and the next call gets 429 with Retry-After; after one unit's refill time
// (buckets) or the Retry-After (windows) a call is admitted again, and a bucket admits no more than
// one plus what refilled. A larger bucket, another rate or no limit fails one of these.
import { apiLimitFromSpec, policyLimit, refillPerSecond } from '@mall-api/rate-limit';
import type { Check, CheckOutcome } from './check.js';
import { baselineParts } from './request-cases.js';
import type { CheckContext } from './request-checks.js';

/** The rate-limit check of an API, on its first read operation that takes no path parameter. */
export function rateLimitChecks(context: CheckContext, api: string, allowed: boolean): Check[] {
  const operation = context.model.operations.find(
    (o) => o.method === 'get' && !o.pathTemplate.includes('{') && o.requiredScope !== 'none',
  );
  if (!operation) return [];
  const { policy } = apiLimitFromSpec(context.model.document, api);
  const limit = policyLimit(policy);
  const perSecond = refillPerSecond(policy);
  const bucket = policy.kind === 'leaky-bucket' || policy.kind === 'token-bucket';
  return [
    {
      group: 'rate-limit',
      subject: api,
      name: `${policy.kind}: ${limit} admitted, then 429 with Retry-After, then recovery at ${perSecond}/s`,
      async run(): Promise<CheckOutcome> {
        if (!allowed) return { skipped: 'spending the rate limit is not allowed (--spend-rate-limit)' };
        const { client } = context;
        const request = { operation, parts: baselineParts(context.model, operation), acceptLimit: true };
        await client.sleep(Math.ceil((limit / perSecond) * 1000) + 1000);
        const started = Date.now();
        let admitted = 0;
        let refusal: Awaited<ReturnType<typeof client.send>> | undefined;
        while (admitted <= 2 * limit) {
          const answer = await client.send(request);
          if (answer.status === 429) {
            refusal = answer;
            break;
          }
          admitted++;
        }
        const seconds = (Date.now() - started) / 1000;
        const most = limit + Math.floor(perSecond * seconds) + 1;
        const problems: string[] = [];
        if (!refusal)
          return {
            problems: [
              `${admitted} calls in ${seconds.toFixed(1)} s were all admitted; the limit is ${limit}`,
            ],
          };
        if (admitted < limit) problems.push(`refused after ${admitted} calls; the limit is ${limit}`);
        if (admitted > most)
          problems.push(`${admitted} calls admitted in ${seconds.toFixed(1)} s; at most ${most} may be`);
        problems.push(...context.answers.problems(operation, refusal));
        const retryAfter = Number(refusal.headers.get('retry-after'));
        if (!Number.isFinite(retryAfter)) return { problems: [...problems, 'the 429 has no Retry-After'] };
        const refusedAt = Date.now();
        const pause = bucket ? Math.ceil(1000 / perSecond) : retryAfter * 1000;
        await client.sleep(pause);
        // Time that passed on the server beyond the pause (all of it when the pause moved a mock's clock).
        const slept = Date.now() - refusedAt;
        let readmitted = 0;
        while (readmitted <= limit && (await client.send(request)).status !== 429) readmitted++;
        if (readmitted === 0)
          problems.push(
            `still refused ${bucket ? `${1 / perSecond} s` : `Retry-After ${retryAfter} s`} later`,
          );
        const extraSeconds = (Date.now() - refusedAt - Math.min(slept, pause)) / 1000;
        const mostReadmitted = 1 + Math.floor(perSecond * extraSeconds);
        if (bucket && readmitted > mostReadmitted)
          problems.push(
            `${readmitted} calls admitted after one unit's refill time (${1 / perSecond} s) and ${extraSeconds.toFixed(2)} s more; at most ${mostReadmitted} may be`,
          );
        return { problems };
      },
    },
  ];
}
