// @ts-check
// What changed between two bundles, for people: Optic's diff grouped by endpoint (spec-diff.mjs)
// sorted into added, changed, deprecated and removed, one line per operation, parameter, request
// or response field, or response.
import { jsonPointerHelpers } from '@useoptic/json-pointer-helpers';

/**
 * @typedef {{ added: string[], changed: string[], deprecated: string[], removed: string[] }} ChangeSummary
 * @typedef {{ trail: string, change: 'added' | 'changed' | 'removed', before?: string, after?: string }} Diff
 */

/** A value in a line, objects without their prose (`description`) so a rule reads short. @param {unknown} value */
const shown = (value) =>
  value === undefined
    ? 'nothing'
    : typeof value === 'object'
      ? JSON.stringify(value, (key, inner) => (key === 'description' ? undefined : inner))
      : String(value);

/**
 * Sorts the diffs of one thing (an operation, a parameter, a field) into the summary.
 * @param {ChangeSummary} summary
 * @param {string} subject how the thing is named in a line, e.g. "query parameter `limit` of `GET /api/shops`"
 * @param {Diff[]} diffs
 * @param {{ before: any, after: any }} documents
 */
function sortDiffs(summary, subject, diffs, { before, after }) {
  if (diffs.length === 0) return;
  const whole = diffs.find((diff) => diff.trail === '' && diff.change !== 'changed');
  if (whole) {
    summary[whole.change === 'added' ? 'added' : 'removed'].push(subject);
    return;
  }
  const details = [];
  for (const diff of diffs) {
    const was = diff.before === undefined ? undefined : jsonPointerHelpers.get(before, diff.before);
    const is = diff.after === undefined ? undefined : jsonPointerHelpers.get(after, diff.after);
    const trail = diff.trail.replace(/^\//, '');
    if (trail.endsWith('deprecated') && is === true) summary.deprecated.push(subject);
    else if (/(^|\/)(description|summary|example|examples)(\/|$)/.test(trail))
      details.push('description or example reworded');
    else if (diff.change === 'added') details.push(`\`${trail}\` ${shown(is)} added`);
    else if (diff.change === 'removed') details.push(`\`${trail}\` ${shown(was)} removed`);
    else details.push(`\`${trail}\` ${shown(was)} → ${shown(is)}`);
  }
  const unique = [...new Set(details)];
  if (unique.length > 0) summary.changed.push(`${subject}: ${unique.join('; ')}`);
}

/**
 * Summarises the grouped diff of two bundles.
 * @param {any} grouped Optic's `groupDiffsByEndpoint` result
 * @param {{ before: any, after: any }} documents the two dereferenced bundles
 * @returns {ChangeSummary}
 */
export function summarizeChanges(grouped, documents) {
  /** @type {ChangeSummary} */
  const summary = { added: [], changed: [], deprecated: [], removed: [] };
  /** Sorts the diffs of each named item (parameters, fields, headers) under its own subject. */
  const sortEach = (
    /** @type {Record<string, { diffs: Diff[] }> | undefined} */ items,
    /** @type {(name: string) => string} */ subject,
  ) => {
    for (const [name, item] of Object.entries(items ?? {}))
      sortDiffs(summary, subject(name), item.diffs, documents);
  };
  /** Whether the diffs add or remove the whole thing (its parts then need no lines of their own). */
  const whole = (/** @type {Diff[]} */ diffs) =>
    diffs.some((diff) => diff.trail === '' && diff.change !== 'changed');
  for (const endpoint of Object.values(grouped.endpoints)) {
    const operation = `\`${endpoint.method.toUpperCase()} ${endpoint.path}\``;
    sortDiffs(summary, `operation ${operation}`, endpoint.diffs, documents);
    if (whole(endpoint.diffs)) continue;
    for (const location of ['query', 'path', 'header', 'cookie'])
      sortEach(
        endpoint[`${location}Parameters`],
        (name) => `${location} parameter \`${name}\` of ${operation}`,
      );
    sortDiffs(summary, `request body of ${operation}`, endpoint.request.diffs, documents);
    for (const body of Object.values(endpoint.request.contents ?? {}))
      sortEach(body.fields, (field) => `request field \`${field}\` of ${operation}`);
    for (const [status, response] of Object.entries(endpoint.responses ?? {})) {
      sortDiffs(summary, `response ${status} of ${operation}`, response.diffs, documents);
      if (whole(response.diffs)) continue;
      sortEach(response.headers, (header) => `response header \`${header}\` of ${status} from ${operation}`);
      for (const body of Object.values(response.contents ?? {}))
        sortEach(body.fields, (field) => `response field \`${field}\` of ${status} from ${operation}`);
    }
  }
  for (const lines of Object.values(summary)) lines.sort();
  return summary;
}
