// @ts-check
// Tables of the guides computed from the bundled specs (through the spec model), so the guides quote the contract rather
// than a copy of it: the error statuses of each API (with their `error.code` values and the named
// examples a QA engineer can pick on the mock), the paging parameters of each list operation, and
// each API's rate-limit headers. HTML only; which guide shows which table is up to the guides.
import { escapeHtml } from './page-shell.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').OperationEntry} OperationEntry */

/**
 * Inline Markdown of a spec description that the tables need: `code` and **bold**.
 * @param {string} text
 */
const inline = (text) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** @param {unknown} text */
const firstSentences = (text, count = 2) =>
  String(text)
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z`])/)
    .slice(0, count)
    .join(' ');

/**
 * @param {string[]} headers
 * @param {string[][]} rows
 * @param {string} caption
 */
const table = (headers, rows, caption, className = 'spec-table') =>
  `<div class="table-scroll" tabindex="0"><table class="${className}">${caption ? `<caption>${caption}</caption>` : ''}
<thead><tr>${headers.map((header) => `<th scope="col">${header}</th>`).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n')}
</tbody></table></div>`;

/**
 * Whether an operation answers errors with the envelope (the OAuth endpoints answer RFC 6749 bodies).
 * @param {SpecModel} model
 * @param {OperationEntry} operation
 */
function usesEnvelope(model, operation) {
  return Object.entries(operation.responses).some(([status, response]) => {
    if (Number(status) < 400) return false;
    /** @type {any} */
    const media = Object.values(model.resolveOptional(response)?.content ?? {})[0];
    /** @type {any} */
    const schema = model.resolveOptional(media?.schema);
    return schema?.properties?.error?.properties?.code !== undefined;
  });
}

/**
 * The error statuses of an API: for each status its `error.code` values, what it means (the
 * description most operations give), and the named examples of the mock to pick with
 * `Prefer: code=…, example=…`.
 * @param {SpecModel} model
 */
export function statusTable(model) {
  /** @type {Map<string, { descriptions: Map<string, number>, codes: Set<string>, examples: Set<string>, operations: number }>} */
  const statuses = new Map();
  const operations = model.operations.filter((operation) => usesEnvelope(model, operation));
  for (const operation of operations) {
    for (const [status, reference] of Object.entries(operation.responses)) {
      if (Number(status) < 300) {
        if (status !== '207') continue;
      }
      /** @type {any} */
      const response = model.resolve(reference);
      const entry = statuses.get(status) ?? {
        descriptions: new Map(),
        codes: new Set(),
        examples: new Set(),
        operations: 0,
      };
      entry.operations += 1;
      const description = firstSentences(response.description ?? '');
      entry.descriptions.set(description, (entry.descriptions.get(description) ?? 0) + 1);
      for (const media of Object.values(response.content ?? {})) {
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          entry.examples.add(name);
          /** @type {any} */
          const value = model.resolveOptional(example)?.value;
          const code = value?.error?.code;
          if (code) entry.codes.add(code);
        }
      }
      statuses.set(status, entry);
    }
  }
  const rows = [...statuses.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, entry]) => {
      const [description] = [...entry.descriptions.entries()].sort((a, b) => b[1] - a[1])[0] ?? [''];
      const varies = entry.descriptions.size > 1 ? ' <em>(the wording varies by operation)</em>' : '';
      return [
        `<strong>${status}</strong>`,
        [...entry.codes].map((code) => `<code>${escapeHtml(code)}</code>`).join(' '),
        `${inline(description)}${varies}`,
        [...entry.examples].map((name) => `<code>${escapeHtml(name)}</code>`).join(', '),
      ];
    });
  return table(
    ['Status', '<code>error.code</code>', 'When', 'Named examples on the mock'],
    rows,
    `${escapeHtml(String(/** @type {any} */ (model.document.info)?.title))}: error responses of its ${operations.length} operations`,
    'spec-table status-table',
  );
}

/**
 * The paging parameters of every operation with a `limit`, grouped by identical rules.
 * @param {SpecModel} model
 */
export function pagingTable(model) {
  /** @type {Map<string, { limitText: string, offsetText: string, operations: string[] }>} */
  const groups = new Map();
  for (const { method, pathTemplate: path, parameters } of model.operations) {
    const limit = parameters.find((parameter) => parameter.name === 'limit' && parameter.in === 'query');
    if (!limit) continue;
    const offset = parameters.find((parameter) => parameter.name === 'offset' && parameter.in === 'query');
    const limitSchema = limit.schema;
    const offsetSchema = offset?.schema ?? {};
    const limitText = `${limitSchema.minimum ?? 1}–${limitSchema.maximum ?? 'no maximum'}, default ${limitSchema.default ?? '—'}`;
    const offsetText = !offset
      ? 'no offset: one request returns up to <code>limit</code> records'
      : offsetSchema.maximum !== undefined
        ? `0–${offsetSchema.maximum} (the offset cap)`
        : 'no cap published';
    const key = `${limitText}|${offsetText}`;
    const group = groups.get(key) ?? { limitText, offsetText, operations: [] };
    group.operations.push(`<code>${method.toUpperCase()} ${escapeHtml(path)}</code>`);
    groups.set(key, group);
  }
  return table(
    ['Operations', '<code>limit</code>', '<code>offset</code>'],
    [...groups.values()].map((group) => [group.operations.join('<br>'), group.limitText, group.offsetText]),
    `${escapeHtml(String(/** @type {any} */ (model.document.info)?.title))}: paging parameters`,
  );
}

/**
 * The rate-limit headers an API sends on every response, with the spec's descriptions and examples.
 * @param {SpecModel} model
 */
export function rateLimitHeaderTable(model) {
  /** @type {Map<string, { description: string, example: unknown, status: string }>} */
  const headers = new Map();
  for (const operation of model.operations) {
    for (const [status, reference] of Object.entries(operation.responses)) {
      if (status !== '200' && status !== '429') continue;
      for (const [name, header] of Object.entries(model.resolveOptional(reference)?.headers ?? {})) {
        if (!/^(X-RateLimit-|X-Api-Call-Limit|Retry-After)/i.test(name) || headers.has(name)) continue;
        /** @type {any} */
        const resolved = model.resolve(header);
        headers.set(name, { description: resolved.description ?? '', example: resolved.example, status });
      }
    }
  }
  return table(
    ['Header', 'Example', 'Meaning'],
    [...headers.entries()].map(([name, header]) => [
      `<code>${escapeHtml(name)}</code>${header.status === '429' ? ' (on 429)' : ''}`,
      header.example === undefined ? '' : `<code>${escapeHtml(String(header.example))}</code>`,
      inline(firstSentences(header.description, 1)),
    ]),
    `${escapeHtml(String(/** @type {any} */ (model.document.info)?.title))}: rate-limit headers`,
  );
}

/**
 * The OAuth scopes of an API: what each grants and the operations that need it.
 * @param {SpecModel} model
 */
export function scopesTable(model) {
  /** @type {Record<string, string>} */
  const scopes = {};
  /** @type {any} */
  const components = model.document.components;
  for (const scheme of Object.values(components?.securitySchemes ?? {})) {
    /** @type {any} */
    const resolved = model.resolveOptional(scheme);
    Object.assign(scopes, resolved?.flows?.authorizationCode?.scopes ?? {});
  }
  /** @type {Map<string, string[]>} */
  const users = new Map();
  for (const { method, pathTemplate: path, requiredScope: scope } of model.operations) {
    if (!scope) continue;
    users.set(scope, [
      ...(users.get(scope) ?? []),
      `<code>${method.toUpperCase()} ${escapeHtml(path)}</code>`,
    ]);
  }
  return table(
    ['Scope', 'Grants', 'Operations'],
    Object.entries(scopes).map(([scope, description]) => [
      `<code>${escapeHtml(scope)}</code>`,
      inline(description),
      `${(users.get(scope) ?? []).length}: ${(users.get(scope) ?? []).join(', ')}`,
    ]),
    `${escapeHtml(String(/** @type {any} */ (model.document.info)?.title))}: OAuth scopes`,
  );
}
