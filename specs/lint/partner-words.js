// @ts-check
// Redocly plugin `partner`: the rule `words` fails the lint when text a partner reads (a
// `description`, `summary` or `title` anywhere in a spec) speaks in the maintainers' words: where a
// fact came from ("the seed", "section 2.8", "x-provenance", "inferred", "the platform reference
// says"). Provenance belongs in `x-provenance` (and `$comment`s), which this rule never reads, and
// so does the text inside any other `x-` extension (an inferred rule's reason, say): the docs site
// strips those extensions, so partners never read them.
// `internalWording` is the one list of those words; the docs' lint runs it over the guides too
// (docs/build/check-guide-words.mjs).

/** Maintainers' words, each with what a partner would need instead. */
const internalWords = [
  { pattern: /\bseed(?:s|'s)?\b/i, name: '"seed"' },
  // A numbered section of a source document ("section 2.8"); an RFC's section is a citation partners
  // can follow, and a category's display sections ("section 1") are the platform's own term.
  { pattern: /(?<!RFC \d+ )\bsections? \d+(?:\.\d+)+/i, name: '"section N"' },
  { pattern: /\bx-provenance\b|\bprovenance\b/i, name: 'provenance' },
  { pattern: /\binferred\b/i, name: '"inferred"' },
  { pattern: /\b(?:platform|public) reference\b/i, name: '"the platform reference"' },
  { pattern: /\breference (?:says|gives|documents|names|lists|states)\b/i, name: '"the reference says"' },
  { pattern: /\(reference[;)]/i, name: '"(reference)"' },
  { pattern: /\bis ours\b|\bour (?:decision|reading|choice|design)\b/i, name: '"ours"' },
];

/**
 * The first maintainers' word in `text` (its name and the matched text), or undefined.
 * @param {string} text
 * @returns {{ name: string, match: string } | undefined}
 */
export function internalWording(text) {
  for (const { pattern, name } of internalWords) {
    const found = pattern.exec(text);
    if (found) return { name, match: found[0] };
  }
  return undefined;
}

/** The fields whose text partners read. */
const partnerFields = ['description', 'summary', 'title'];

/**
 * Whether a JSON pointer runs through an `x-` extension (maintainers' data the docs do not show).
 * @param {string} pointer
 */
const insideExtension = (pointer) => pointer.split('/').some((segment) => segment.startsWith('x-'));

/** @type {() => Record<string, unknown>} */
function PartnerWords() {
  return {
    any: {
      /**
       * @param {unknown} node
       * @param {{ report: (problem: { message: string, location?: unknown }) => void, location: { pointer: string, child: (path: string[]) => unknown } }} ctx
       */
      enter(node, ctx) {
        if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
        if (insideExtension(ctx.location.pointer)) return;
        const fields = /** @type {Record<string, unknown>} */ (node);
        for (const field of partnerFields) {
          const text = fields[field];
          if (typeof text !== 'string') continue;
          const found = internalWording(text);
          if (found)
            ctx.report({
              message: `${field} says ${found.name} ("${found.match}"): write what the partner needs (what it does, its limits, platform or sandbox behaviour); keep provenance in x-provenance.`,
              location: ctx.location.child([field]),
            });
        }
      },
    },
  };
}

export default function partnerPlugin() {
  return { id: 'partner', rules: { oas3: { words: PartnerWords } } };
}
