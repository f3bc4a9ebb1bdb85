// @ts-check
// The released versions of each API, kept in the repository: `specs/releases/<api>/<version>.json`
// is the bundle as released, `specs/releases/<api>/<version>.md` its release notes (front matter
// `date:` once released; a `## Incompatible description changes` section declares the breaks a major
// revision makes). A version is a revision of our description, not an API version (those are the
// release dates of a bundle's `x-api-versions`).
// Notes for a version not yet released sit beside the released ones without a bundle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

/** The repository root. */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** @param {string} api */
export const releasesDirectory = (api, root = repositoryRoot) => join(root, 'specs', 'releases', api);
/** @param {string} api */
export const currentBundlePath = (api, root = repositoryRoot) =>
  join(root, 'specs', 'dist', `${api}.openapi.json`);

/**
 * The API versions (release dates, newest first) a bundle describes in `x-api-versions`; `undefined`
 * when the bundle does not record them (revisions before they were data).
 * @param {Record<string, any>} bundle
 * @returns {string[] | undefined}
 */
export function apiVersionDates(bundle) {
  const described = bundle['x-api-versions'];
  if (!described) return undefined;
  return (described.versions ?? []).map((/** @type {{date: string}} */ version) => version.date);
}

/**
 * Release notes of one version.
 * @typedef {{ version: string, date?: string, body: string, text: string, declaredBreaks: string[] }} ReleaseNotes
 */

/**
 * Reads release notes: optional front matter (`date: 2026-11-23`), then Markdown; the list items
 * under `## Incompatible description changes` are the declared breaks.
 * @param {string} file
 * @param {string} version
 * @returns {ReleaseNotes}
 */
export function readReleaseNotes(file, version) {
  const text = readFileSync(file, 'utf8');
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  const date = front ? /^date:\s*(\S+)\s*$/m.exec(front[1] ?? '')?.[1] : undefined;
  const body = (front ? text.slice(front[0].length) : text).trim();
  const section =
    /^## Incompatible description changes\s*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(body)?.[1] ?? '';
  const declaredBreaks = section
    .split('\n')
    .filter((line) => /^\s*[-*]\s+\S/.test(line))
    .map((line) => line.replace(/^\s*[-*]\s+/, '').trim());
  return { version, ...(date ? { date } : {}), body, text, declaredBreaks };
}

/**
 * The released versions of an API, oldest first, each with its bundle path and notes.
 * @param {string} api
 * @returns {{ version: string, bundle: string, notes: ReleaseNotes }[]}
 */
export function releasedVersions(api, root = repositoryRoot) {
  const directory = releasesDirectory(api, root);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json') && semver.valid(name.slice(0, -5)))
    .map((name) => name.slice(0, -5))
    .sort(semver.compare)
    .map((version) => {
      const notesFile = join(directory, `${version}.md`);
      return {
        version,
        bundle: join(directory, `${version}.json`),
        notes: existsSync(notesFile)
          ? readReleaseNotes(notesFile, version)
          : { version, body: '', text: '', declaredBreaks: [] },
      };
    });
}

/**
 * The notes written for a version that is not released yet, if any.
 * @param {string} api
 * @param {string} version
 */
export function pendingNotes(api, version, root = repositoryRoot) {
  const file = join(releasesDirectory(api, root), `${version}.md`);
  return existsSync(file) ? readReleaseNotes(file, version) : undefined;
}

/** @param {string} file @returns {Record<string, any>} */
export const readBundle = (file) => JSON.parse(readFileSync(file, 'utf8'));
