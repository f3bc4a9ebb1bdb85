// @ts-check
// The breaking-change check of one API: its current bundle (a revision of our description,
// `info.version`) against its last released bundle. A break passes only when it is declared —
// `info.version` a major revision above the release and the notes of that revision listing the
// breaks under `## Incompatible description changes`. A changed description must carry a new
// revision, and that revision's notes must hold every change, generated (release-notes.mjs).
import semver from 'semver';
import {
  apiVersionDates,
  currentBundlePath,
  pendingNotes,
  readBundle,
  releasedVersions,
} from './api-releases.mjs';
import { generatedBlock, holdsBlock } from './release-notes.mjs';
import { diffBundles } from './spec-diff.mjs';

/**
 * The outcome for one API.
 * @typedef {{ api: string, released?: string, current: string, apiVersions?: string[], breaking: import('./spec-diff.mjs').BreakingChange[], declared: boolean, problem?: string, notes?: string }} BreakingCheck
 * `current` and `released` are description revisions (`info.version`); `apiVersions` the API's own
 * date versions the current bundle describes (absent when it records none). `notes` is the
 * generated block the pending revision's notes must hold (set when they do not).
 */

/**
 * Checks one API.
 * @param {string} api
 * @param {string} [root] the repository root (a test's copy, say)
 * @returns {Promise<BreakingCheck>}
 */
export async function checkApi(api, root) {
  const current = readBundle(currentBundlePath(api, root));
  const version = String(current.info?.version);
  const dates = apiVersionDates(current);
  const apiVersions = dates ? { apiVersions: dates } : {};
  const last = releasedVersions(api, root).at(-1);
  if (!last) return { api, current: version, ...apiVersions, breaking: [], declared: false };
  const released = readBundle(last.bundle);
  const unchanged = JSON.stringify(released) === JSON.stringify(current);
  // Identical documents cannot differ; skipping Optic there keeps the usual run quick.
  const diffed = unchanged ? undefined : await diffBundles(released, current);
  const breaking = diffed?.breaking ?? [];
  const pending = version === last.version ? undefined : pendingNotes(api, version, root);
  const problem = !semver.valid(version)
    ? `info.version ${version} is not a semantic version`
    : semver.lt(version, last.version)
      ? `info.version ${version} is below the released ${last.version}`
      : diffed && version === last.version
        ? `the description changed since ${last.version} was released: raise info.version`
        : undefined;
  const block = diffed && version !== last.version ? generatedBlock(last.version, diffed) : undefined;
  const notesMissing = block !== undefined && !holdsBlock(pending?.text ?? '', block);
  const declared =
    semver.valid(version) !== null &&
    semver.major(version) > semver.major(last.version) &&
    (pending?.declaredBreaks.length ?? 0) > 0;
  return {
    api,
    released: last.version,
    current: version,
    ...apiVersions,
    breaking,
    declared,
    ...(problem ? { problem } : {}),
    ...(notesMissing ? { notes: block } : {}),
  };
}

/** Whether the check lets the change through. @param {BreakingCheck} check */
export const passes = (check) =>
  !check.problem && check.notes === undefined && (check.breaking.length === 0 || check.declared);

/**
 * The check in plain words, one line per break with its location.
 * @param {BreakingCheck} check
 * @returns {string}
 */
export function formatCheck(check) {
  const { api, released, current, apiVersions, breaking, declared, problem, notes } = check;
  if (!released) return `${api}: no released description revision yet; nothing to compare\n`;
  // The revision numbers are our description's; the API's own versions are dates, named apart.
  const dates = !apiVersions ? 'not recorded' : apiVersions.join(', ') || 'none published';
  const head = `${api}: description ${current} (API versions: ${dates}) against released description ${released}: `;
  const lines = [];
  if (problem) lines.push(`${head}${problem}`);
  if (notes !== undefined)
    lines.push(
      `${head}the notes in specs/releases/${api}/${current}.md do not list every change: run npm run release:notes`,
    );
  if (breaking.length === 0) {
    if (!problem) lines.push(`${head}no breaking change`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `${head}${breaking.length} breaking change${breaking.length === 1 ? '' : 's'}${declared ? ` (declared in the ${current} release notes)` : ''}`,
  );
  for (const change of breaking)
    lines.push(`  ✗ ${change.where}: ${change.message}`, `      at ${change.location}`);
  if (!declared) {
    const next = semver.valid(released) ? `${semver.major(released) + 1}.0.0` : 'the next major version';
    lines.push(
      `  To make these changes, set info.version in specs/${api}/openapi.yaml to ${next} and list them, as`,
      `  changes of the description, under "## Incompatible description changes" in`,
      `  specs/releases/${api}/${next}.md; otherwise undo them.`,
    );
  }
  return `${lines.join('\n')}\n`;
}
