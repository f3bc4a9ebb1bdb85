// Tables of the guides computed from the bundled specs, so the guides quote the contract rather
// than a copy of it: the error statuses of each API (with their `error.code` values and the named
// examples a QA engineer can pick on the mock), the paging parameters of each list operation, and
// each API's rate-limit headers. HTML only; which guide shows which table is up to the guides.
import { operationsOf } from './code-samples.mjs';
import { escapeHtml } from './page-shell.mjs';

function deref(spec, node) {
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((parent, key) => parent?.[key], spec);
  }
  return current;
}

/** Inline Markdown of a spec description that the tables need: `code` and **bold**. */
const inline = (text) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

const firstSentences = (text, count = 2) =>
  String(text)
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z`])/)
    .slice(0, count)
    .join(' ');

const table = (headers, rows, caption, className = 'spec-table') =>
  `<div class="table-scroll" tabindex="0"><table class="${className}">${caption ? `<caption>${caption}</caption>` : ''}
<thead><tr>${headers.map((header) => `<th scope="col">${header}</th>`).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n')}
</tbody></table></div>`;

/** Whether an operation answers errors with the envelope (the OAuth endpoints answer RFC 6749 bodies). */
function usesEnvelope(spec, operation) {
  return Object.entries(operation.responses ?? {}).some(([status, response]) => {
    if (Number(status) < 400) return false;
    const schema = deref(spec, Object.values(deref(spec, response)?.content ?? {})[0]?.schema);
    return schema?.properties?.error?.properties?.code !== undefined;
  });
}

/**
 * The error statuses of an API: for each status its `error.code` values, what it means (the
 * description most operations give), and the named examples of the mock to pick with
 * `Prefer: code=…, example=…`.
 */
export function statusTable(spec) {
  const statuses = new Map();
  const operations = operationsOf(spec).filter(({ operation }) => usesEnvelope(spec, operation));
  for (const { operation } of operations) {
    for (const [status, reference] of Object.entries(operation.responses ?? {})) {
      if (Number(status) < 300) {
        if (status !== '207') continue;
      }
      const response = deref(spec, reference);
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
          const code = deref(spec, example)?.value?.error?.code;
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
    `${escapeHtml(spec.info.title)}: error responses of its ${operations.length} operations`,
    'spec-table status-table',
  );
}

/** The paging parameters of every operation with a `limit`, grouped by identical rules. */
export function pagingTable(spec) {
  const groups = new Map();
  for (const { method, path, parameters } of operationsOf(spec)) {
    const limit = parameters.find((parameter) => parameter.name === 'limit' && parameter.in === 'query');
    if (!limit) continue;
    const offset = parameters.find((parameter) => parameter.name === 'offset' && parameter.in === 'query');
    const limitSchema = deref(spec, limit.schema) ?? {};
    const offsetSchema = deref(spec, offset?.schema) ?? {};
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
    `${escapeHtml(spec.info.title)}: paging parameters`,
  );
}

/** The rate-limit headers an API sends on every response, with the spec's descriptions and examples. */
export function rateLimitHeaderTable(spec) {
  const headers = new Map();
  for (const { operation } of operationsOf(spec)) {
    for (const [status, reference] of Object.entries(operation.responses ?? {})) {
      if (status !== '200' && status !== '429') continue;
      for (const [name, header] of Object.entries(deref(spec, reference)?.headers ?? {})) {
        if (!/^(X-RateLimit-|X-Api-Call-Limit|Retry-After)/i.test(name) || headers.has(name)) continue;
        const resolved = deref(spec, header);
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
    `${escapeHtml(spec.info.title)}: rate-limit headers`,
  );
}

/** The OAuth scopes of an API: what each grants and the operations that need it. */
export function scopesTable(spec) {
  const scopes = {};
  for (const scheme of Object.values(spec.components?.securitySchemes ?? {})) {
    Object.assign(scopes, deref(spec, scheme)?.flows?.authorizationCode?.scopes ?? {});
  }
  const users = new Map();
  for (const { method, path, operation } of operationsOf(spec)) {
    const scope = operation['x-required-scope'];
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
    `${escapeHtml(spec.info.title)}: OAuth scopes`,
  );
}
