// @ts-check
// Builds the site's search index with MiniSearch at docs build time: one document per guide
// section and subsection (h2 and h3, each found by its heading; from the rendered guide, so the computed tables are searchable too), one per operation
// of each reference (summary, description, method and path, and as names its operationId and
// every parameter and request or response field name, read through the spec model), and one per
// changelog. Serialized to `search-index.json`, which the page loads (src/browser/search.ts).
import MiniSearch from 'minisearch';
import { searchOptions } from '../src/search-options.mjs';

/** @typedef {import('../src/search-options.mjs').SearchDocument} SearchDocument */
/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */

/** @param {string} html as plain text */
const plainText = (html) =>
  html
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The sections of a rendered guide: the text before the first `##` under the guide's title (found
 * also by the words of the guide's summary, its topics), then one document per `##` section.
 * @param {{ name: string, title: string, summary: string }} guide
 * @param {string} html the guide's rendered body
 * @returns {SearchDocument[]}
 */
export function guideDocuments(guide, html) {
  const [intro = '', ...sections] = html.split(/(?=<h[23] id=")/);
  const documents = [
    {
      id: `guide:${guide.name}`,
      title: guide.title,
      section: 'Guide',
      url: `guides/${guide.name}.html`,
      text: plainText(intro),
      names: guide.summary,
    },
  ];
  for (const section of sections) {
    const match = /^<h([23]) id="([^"]+)">([\s\S]*?)<\/h\1>/.exec(section);
    if (!match) continue;
    const [whole, , id = '', heading = ''] = match;
    documents.push({
      id: `guide:${guide.name}#${id}`,
      title: plainText(heading.replace(/<a class="anchor"[^>]*>#<\/a>/, '')),
      section: `Guide: ${guide.title}`,
      url: `guides/${guide.name}.html#${id}`,
      text: plainText(section.slice(whole.length)),
      names: '',
    });
  }
  return documents;
}

/**
 * Every property name under `schema` (dereferenced), nested ones included.
 * @param {unknown} schema
 * @param {Set<string>} names
 */
function collectFieldNames(schema, names, depth = 0) {
  if (depth > 12 || schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const item of schema) collectFieldNames(item, names, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const name of Object.keys(value)) names.add(name);
    }
    if (key !== 'example' && key !== 'examples') collectFieldNames(value, names, depth + 1);
  }
}

/**
 * One document per operation of an API's reference.
 * @param {{ name: string, shortTitle: string }} api
 * @param {SpecModel} model
 * @returns {SearchDocument[]}
 */
export function referenceDocuments(api, model) {
  return model.operations.map((operation) => {
    /** @type {Set<string>} */
    const names = new Set([
      operation.operationId,
      ...operation.parameters.map((parameter) => parameter.name),
    ]);
    if (operation.bodySchema) collectFieldNames(model.dereference(operation.bodySchema), names);
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      /** @type {any} */
      const resolved = model.resolveOptional(response);
      for (const media of Object.values(resolved?.content ?? {})) {
        collectFieldNames(model.dereference(/** @type {any} */ (media).schema ?? {}), names);
      }
    }
    const definition = operation.definition;
    return {
      id: `${api.name}:${operation.operationId}`,
      title: String(definition.summary ?? operation.operationId),
      section: `${api.shortTitle} reference · ${operation.method.toUpperCase()} ${operation.pathTemplate}`,
      url: `${api.name}/index.html#operation/${operation.operationId}`,
      text: `${operation.method.toUpperCase()} ${operation.pathTemplate} ${String(definition.description ?? '')}`,
      names: [...names].join(' '),
    };
  });
}

/**
 * The serialized MiniSearch index of `documents`.
 * @param {SearchDocument[]} documents
 */
export function searchIndexJson(documents) {
  const index = new MiniSearch(searchOptions);
  index.addAll(documents);
  return JSON.stringify(index);
}
