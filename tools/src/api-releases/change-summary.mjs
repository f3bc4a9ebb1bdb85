// @ts-check
// What changed between two bundles, for people: Optic's diff grouped by endpoint (spec-diff.mjs)
// sorted into added, changed, deprecated and removed, one line per operation, parameter, request
// or response field, or response.
import { jsonPointerHelpers } from '@useoptic/json-pointer-helpers';

/**
 * @typedef {{ added: string[], changed: string[], deprecated: string[], removed: string[] }} ChangeSummary
 * @typedef {{ trail: string, change: 'added' | 'changed' | 'removed', before?: string, after?: string }} Diff
 */

/** @param {unknown} value */
const shown = (value) =>
  value === undefined ? 'nothing' : typeof value === 'object' ? JSON.stringify(value) : String(value);

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
  for (const endpoint of Object.values(grouped.endpoints)) {
    const operation = `\`${endpoint.method.toUpperCase()} ${endpoint.path}\``;
    sortDiffs(summary, `operation ${operation}`, endpoint.diffs, documents);
    if (endpoint.diffs.some((/** @type {Diff} */ diff) => diff.trail === '' && diff.change !== 'changed'))
      continue;
    for (const location of ['query', 'path', 'header', 'cookie']) {
      for (const [name, item] of Object.entries(endpoint[`${location}Parameters`] ?? {}))
        sortDiffs(summary, `${location} parameter \`${name}\` of ${operation}`, item.diffs, documents);
    }
    sortDiffs(summary, `request body of ${operation}`, endpoint.request.diffs, documents);
    for (const body of Object.values(endpoint.request.contents ?? {}))
      for (const [field, item] of Object.entries(body.fields ?? {}))
        sortDiffs(summary, `request field \`${field}\` of ${operation}`, item.diffs, documents);
    for (const [status, response] of Object.entries(endpoint.responses ?? {})) {
      sortDiffs(summary, `response ${status} of ${operation}`, response.diffs, documents);
      if (response.diffs.some((/** @type {Diff} */ diff) => diff.trail === '' && diff.change !== 'changed'))
        continue;
      for (const [header, item] of Object.entries(response.headers ?? {}))
        sortDiffs(
          summary,
          `response header \`${header}\` of ${status} from ${operation}`,
          item.diffs,
          documents,
        );
      for (const body of Object.values(response.contents ?? {}))
        for (const [field, item] of Object.entries(body.fields ?? {}))
          sortDiffs(
            summary,
            `response field \`${field}\` of ${status} from ${operation}`,
            item.diffs,
            documents,
          );
    }
  }
  for (const lines of Object.values(summary)) lines.sort();
  return summary;
}
