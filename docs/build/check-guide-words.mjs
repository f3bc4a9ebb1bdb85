#!/usr/bin/env node
// @ts-check
// Part of the docs' lint: the prose of the guides and changelogs (docs/guides/*.md,
// docs/changelogs/*.md) uses partners' words only, by the specs' own list (specs/lint/
// partner-words.js, the Redocly rule `partner/words`): no "seed", "section 2.8", provenance.
// Code (fenced blocks and `inline code`) is left out: a command's `--seed` option is a name the
// reader types, not an internal note. Prints each finding as file:line and exits 1 if any.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { internalWording } from '../../specs/lint/partner-words.js';

const docsRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The findings in one Markdown text: its prose lines that use a maintainers' word.
 * @param {string} markdown
 * @returns {{ line: number, name: string, match: string }[]}
 */
export function guideWordFindings(markdown) {
  const findings = [];
  let fenced = false;
  for (const [index, line] of markdown.split('\n').entries()) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const found = internalWording(line.replace(/`[^`]*`/g, ''));
    if (found) findings.push({ line: index + 1, ...found });
  }
  return findings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const folder of ['guides', 'changelogs']) {
    const files = await readdir(join(docsRoot, folder)).catch(() => /** @type {string[]} */ ([]));
    for (const file of files.filter((name) => name.endsWith('.md'))) {
      const path = join(docsRoot, folder, file);
      for (const { line, name, match } of guideWordFindings(await readFile(path, 'utf8'))) {
        failed = true;
        process.stderr.write(`${relative(process.cwd(), path)}:${line}: says ${name} ("${match}")\n`);
      }
    }
  }
  if (failed) process.exit(1);
}
