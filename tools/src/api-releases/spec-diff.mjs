// @ts-check
// Compares two bundles of one API with Optic (@useoptic/openapi-utilities: an OpenAPI 3.0/3.1 diff
// and rule engine, offline, pure JavaScript): the structural diff, grouped by endpoint, and every
// breaking change found by Optic's BreakingChangesRuleset and our narrowing rules. Both bundles are
// dereferenced through @mall-api/spec-model first, so a change to a shared component shows up at
// every operation that uses it. Optic reads only `paths`, so each event of `webhooks` is compared as
// the operation `POST event <name>` whose 200 answer is the event's body: the app reads a delivery
// as a client reads an answer, so removing an event, removing a body field or changing its type
// is breaking, as it is for a response. Optic's comparison of a pair is computed once per checkout
// (comparison-cache.mjs).
import { createSpecModel } from '@mall-api/spec-model';
import { compareSpecs, groupDiffsByEndpoint } from '@useoptic/openapi-utilities';
import { RuleRunner } from '@useoptic/rulesets-base';
import { BreakingChangesRuleset } from '@useoptic/standard-rulesets';
import { cachedComparison } from './comparison-cache.mjs';
import { narrowingRuleset } from './narrowing-rules.mjs';

/**
 * One breaking change, in plain words.
 * @typedef {{ where: string, message: string, rule: string, location: string }} BreakingChange
 */

/**
 * `document` with each event of `webhooks` also under `paths`, as an operation answering its body.
 * @param {Record<string, any>} document dereferenced
 */
export function withEventsAsOperations(document) {
  const events = Object.entries(document.webhooks ?? {}).map(([name, item]) => [
    `event ${name}`,
    Object.fromEntries(
      Object.entries(item).map(([method, operation]) => {
        const { requestBody, responses: _received, ...rest } = operation;
        const answer = { description: 'The event body.', content: requestBody?.content ?? {} };
        return [method, { ...rest, responses: { 200: answer } }];
      }),
    ),
  ]);
  return events.length === 0
    ? document
    : { ...document, paths: { ...document.paths, ...Object.fromEntries(events) } };
}

/** @param {Record<string, any>} document */
const dereferenced = (document) =>
  withEventsAsOperations(
    /** @type {Record<string, any>} */ (createSpecModel(document).dereference(document)),
  );

/** @param {any} document */
const opticInput = (document) => ({
  jsonLike: document,
  sourcemap: { rootFilePath: 'openapi.json', files: [], refMappings: {} },
  isEmptySpec: false,
});

/**
 * Diffs two bundles of one API.
 * @param {Record<string, any>} before the released bundle
 * @param {Record<string, any>} after the bundle being checked
 * @returns {Promise<{ breaking: BreakingChange[], grouped: ReturnType<typeof groupDiffsByEndpoint>, before: any, after: any, bundles: { before: Record<string, any>, after: Record<string, any> } }>}
 *   `before`/`after` dereferenced (what the endpoint diff points into); `bundles` as given, `$ref`s kept
 */
export async function diffBundles(before, after) {
  const from = /** @type {any} */ (dereferenced(before));
  const to = /** @type {any} */ (dereferenced(after));
  const { diffs, results } = await cachedComparison(from, to, async () => {
    const runner = new RuleRunner([new BreakingChangesRuleset(), narrowingRuleset]);
    const compared = await compareSpecs(opticInput(from), opticInput(to), runner, {});
    return { diffs: compared.diffs, results: compared.results };
  });
  const breaking = results
    .filter((result) => !result.passed && !result.exempted)
    .map((result) => ({
      where: result.where,
      message: plainWords(result.error ?? result.name),
      rule: result.name,
      location: `${result.location.spec === 'before' ? 'released' : 'current'} bundle ${decodePointer(result.location.jsonPath)}`,
    }));
  return {
    breaking: withoutConsequences(breaking),
    grouped: groupDiffsByEndpoint({ from, to }, diffs, results),
    before: from,
    after: to,
    bundles: { before, after },
  };
}

/** Optic's message without its boilerplate, a type narrowing said as such. */
const plainWords = (/** @type {string} */ message) =>
  message
    .replace(/\. This is a breaking change\.$/, '')
    .replace(
      /^expected (.+?) not (?:to )?be narrowed$/,
      '$1 changed type: values of the old type are refused',
    );

/**
 * The breaks without those inside another break (the parameters and responses of a removed
 * operation, the fields of a removed response): one line per thing a client notices.
 * @param {BreakingChange[]} breaks
 */
const withoutConsequences = (breaks) =>
  breaks.filter(
    (change) => !breaks.some((other) => other !== change && change.location.startsWith(`${other.location}/`)),
  );

/** `/paths/~1api~1shops/get` → `/paths/{/api/shops}/get`, readable in a terminal. */
const decodePointer = (/** @type {string} */ pointer) =>
  pointer
    .split('/')
    .map((segment) =>
      segment.includes('~1') ? `{${segment.replace(/~1/g, '/').replace(/~0/g, '~')}}` : segment,
    )
    .join('/');
