// @ts-check
// The "Try it" buttons of a reference, written into the copy of the spec Redoc renders
// (`<api>.redoc.json`): each listed operation's description starts with its button, so the button
// is part of Redoc's own markup — in the prerendered HTML and in what Redoc renders or hydrates in
// the browser, alike — and works from the moment the page shows, before Redoc is live (the console,
// assets/console.js, listens for clicks on the page; see src/browser/console.ts).
import { escapeHtml } from './page-shell.mjs';

/**
 * The button of one operation, as raw HTML in its Markdown description.
 * @param {{ operationId: string, summary: string }} operation
 */
export const tryItButton = (operation) =>
  `<button type="button" class="try-it" data-operation="${escapeHtml(operation.operationId)}" aria-label="Try it: ${escapeHtml(operation.summary)}">Try it</button>`;

/**
 * `spec` (Redoc's copy, parsed) with a Try it button at the start of the description of every
 * operation in `operations`. Changes `spec` in place and returns it.
 * @param {{ paths?: Record<string, Record<string, any>> }} spec
 * @param {{ operationId: string, summary: string }[]} operations
 */
export function withTryItButtons(spec, operations) {
  const listed = new Map(operations.map((operation) => [operation.operationId, operation]));
  for (const item of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const entry = listed.get(operation?.operationId);
      if (!entry) continue;
      operation.description = `${tryItButton(entry)}\n\n${operation.description ?? ''}`;
    }
  }
  return spec;
}
