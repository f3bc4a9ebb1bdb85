// @ts-check
// Cutting an API release: when a spec's `info.version` is not released yet, its bundle is copied to
// specs/releases/<api>/<version>.json and the release notes of that version get their date (notes
// are created, saying only that, when none were written). Run by `npm run release:version`, after
// the breaking-change check passed; the changelogs are regenerated afterwards.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentBundlePath, readBundle, releasedVersions, releasesDirectory } from './api-releases.mjs';

/**
 * What releasing `api` now would do.
 * @param {string} api
 * @param {string} [root]
 * @returns {{ api: string, version: string, due: boolean, notesFile: string, notesWritten: boolean }}
 */
export function pendingRelease(api, root) {
  const version = String(readBundle(currentBundlePath(api, root)).info?.version);
  const due = !releasedVersions(api, root).some((release) => release.version === version);
  const notesFile = join(releasesDirectory(api, root), `${version}.md`);
  return { api, version, due, notesFile, notesWritten: existsSync(notesFile) };
}

/**
 * Releases `api` at its current `info.version`, dated `date` (YYYY-MM-DD).
 * @param {string} api
 * @param {string} date
 * @param {string} [root]
 */
export function cutRelease(api, date, root) {
  const pending = pendingRelease(api, root);
  if (!pending.due) return pending;
  mkdirSync(releasesDirectory(api, root), { recursive: true });
  copyFileSync(currentBundlePath(api, root), join(releasesDirectory(api, root), `${pending.version}.json`));
  const notes = pending.notesWritten
    ? readFileSync(pending.notesFile, 'utf8')
    : `Version ${pending.version}.\n`;
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(notes);
  const body = front ? notes.slice(front[0].length) : notes;
  const fields = (front?.[1] ?? '').split('\n').filter((line) => line.trim() !== '' && !/^date:/.test(line));
  writeFileSync(pending.notesFile, `---\n${[`date: ${date}`, ...fields].join('\n')}\n---\n${body}`);
  return pending;
}
