// @ts-check
// The site for tools as well as people: a Markdown copy of every guide (its text with the computed
// tables kept as HTML and the pictures named), a Markdown reference per API generated from the
// spec model (every operation with its parameters, body, responses and samples), and `llms.txt`
// (llmstxt.org) listing them. Text only; the build script writes the files.

import { apiVersionsLabel } from './api-versions-label.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {{ name: string, title: string, summary: string, markdown: string }} Guide */
/** @typedef {{ name: string, title: string, shortTitle: string, summary: string }} ApiEntry */

/**
 * A guide as Markdown: its title and summary, then its text with each `{{name:argument}}` block
 * replaced by `blocks[name](argument)` (tables stay HTML, which Markdown allows; pictures become a
 * line naming them). Links to other guides (`other.md`) work between the copies as written.
 * @param {Guide} guide
 * @param {Record<string, (argument: string) => string>} blocks
 */
export function guideMarkdown(guide, blocks) {
  const text = guide.markdown.replace(/^\{\{([a-z-]+):([a-z0-9-]+)\}\}$/gm, (_, name, argument) => {
    if (name === 'diagram') return `*(Picture: ${argument.replace(/-/g, ' ')} — see the HTML page.)*`;
    const block = blocks[name];
    if (!block) throw new Error(`guide ${guide.name}: unknown block {{${name}:${argument}}}`);
    return block(argument);
  });
  return `<!-- ${guide.summary} -->\n${text.trimStart()}`;
}

/** @param {unknown} text one line, pipes escaped, for a table cell */
const cell = (text) =>
  String(text ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();

/** @param {Record<string, unknown>} schema a short type text */
function typeText(schema) {
  const items = /** @type {Record<string, unknown>} */ (schema.items ?? {});
  const type =
    schema.type === 'array' ? `array of ${String(items.type ?? 'object')}` : String(schema.type ?? 'object');
  const choices = /** @type {unknown[] | undefined} */ (schema.enum ?? items.enum);
  return choices ? `${type} (${choices.join(', ')})` : type;
}

/**
 * An API reference as Markdown, one section per operation.
 * @param {ApiEntry} api
 * @param {SpecModel} model
 * @param {Map<string, { typescript: string, curl: string, python: string, php: string }>} samples by operationId
 */
export function referenceMarkdown(api, model, samples) {
  const info = /** @type {Record<string, unknown>} */ (model.document.info ?? {});
  const lines = [
    `# ${api.title} — reference`,
    '',
    `API versions: ${apiVersionsLabel(model.document)}. Description revision ${String(info.version)}. ${api.summary}`,
    '',
  ];
  if (info.description) lines.push(String(info.description), '');
  for (const operation of model.operations) {
    const definition = operation.definition;
    lines.push(
      `## ${String(definition.summary ?? operation.operationId)}`,
      '',
      `\`${operation.method.toUpperCase()} ${operation.pathTemplate}\` · operationId \`${operation.operationId}\`${operation.requiredScope ? ` · scope \`${operation.requiredScope}\`` : ''}`,
      '',
    );
    if (definition.description) lines.push(String(definition.description).trim(), '');
    if (operation.parameters.length > 0) {
      lines.push('| Parameter | In | Type | Required | Description |', '|---|---|---|---|---|');
      for (const parameter of operation.parameters) {
        lines.push(
          `| \`${parameter.name}\` | ${parameter.in} | ${cell(typeText(parameter.schema))} | ${parameter.required ? 'yes' : 'no'} | ${cell(parameter.definition.description)} |`,
        );
      }
      lines.push('');
    }
    if (operation.bodySchema) {
      lines.push(
        `Request body (JSON${operation.bodyRequired ? ', required' : ''}), schema:`,
        '',
        '```json',
        JSON.stringify(model.dereference(operation.bodySchema), null, 2),
        '```',
        '',
      );
    }
    lines.push('Responses:', '');
    for (const [status, response] of Object.entries(operation.responses)) {
      lines.push(`- **${status}**: ${cell(model.resolveOptional(response)?.description)}`);
    }
    lines.push('');
    const sample = samples.get(operation.operationId);
    if (sample) {
      lines.push('```sh', sample.curl, '```', '', '```ts', sample.typescript.trimEnd(), '```', '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * `llms.txt`: what the site is, then links to the Markdown copies and the downloads.
 * @param {ApiEntry[]} apis
 * @param {Guide[]} guides
 * @param {{ name: string, title: string }[]} changelogs
 */
export function llmsTxt(apis, guides, changelogs) {
  return `${[
    '# mall-api',
    '',
    '> Documentation of three commerce APIs of the mall platform (collection, admin, analytics): guides, one reference per API generated from its OpenAPI 3.1 document, typed TypeScript clients and local mock servers.',
    '',
    'Every reference and sample is generated from the specs; the local mocks answer on 127.0.0.1:4010 (collection), 4011 (admin, also the OAuth server) and 4012 (analytics).',
    '',
    '## Guides',
    '',
    ...guides.map((guide) => `- [${guide.title}](guides/${guide.name}.md): ${guide.summary}`),
    '',
    '## References',
    '',
    ...apis.map((api) => `- [${api.title}](${api.name}/reference.md): ${api.summary}`),
    '',
    '## Specs and collections',
    '',
    ...apis.flatMap((api) => [
      `- [${api.name}.openapi.yaml](specs/${api.name}.openapi.yaml): the bundled OpenAPI document of the ${api.shortTitle} API`,
      `- [${api.name}.postman_collection.json](postman/${api.name}.postman_collection.json): a Postman collection of the ${api.shortTitle} API`,
    ]),
    ...(changelogs.length > 0
      ? ['', '## Changelogs', '', ...changelogs.map((log) => `- [${log.title}](changelogs/${log.name}.md)`)]
      : []),
    '',
    '## Optional',
    '',
    ...apis.map((api) => `- [${api.name}.openapi.json](specs/${api.name}.openapi.json)`),
  ].join('\n')}\n`;
}
