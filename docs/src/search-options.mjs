// @ts-check
// The MiniSearch options the build indexes with and the page searches with: which fields of a
// search document are indexed and which are stored for showing a result. One definition, so the
// serialized index and its reader cannot disagree.

/**
 * One thing the search can find: a guide section, an operation, a changelog.
 * @typedef {object} SearchDocument
 * @property {string} id
 * @property {string} title What a result shows: a section heading, an operation's summary.
 * @property {string} section Where it is: `Guide: Rate limits`, `Admin reference · GET /api/v2/admin/products`.
 * @property {string} url Site-relative link.
 * @property {string} text Body text.
 * @property {string} names Names to find it by: operationId, parameter and field names.
 */

/** @typedef {Pick<SearchDocument, 'title' | 'section' | 'url'>} SearchResultFields */

/**
 * Options of the index (build) and of `MiniSearch.loadJSON` (page). Field names are snake_case:
 * `product_no` is indexed as itself and as `product` and `no`.
 */
export const searchOptions = {
  fields: ['title', 'section', 'text', 'names'],
  storeFields: ['title', 'section', 'url'],
  /** @param {string} text */
  tokenize: (text) =>
    text
      .split(/[\s\-.,;:!?()[\]{}"'`/=<>|*#]+/u)
      .filter(Boolean)
      .flatMap((word) => (word.includes('_') ? [word, ...word.split('_').filter(Boolean)] : [word])),
  /** @param {string} term */
  processTerm: (term) => term.toLowerCase(),
};
