// @ts-check
// The operation ids of a client (`src/generated/operation-ids.ts`): the spec's operationId of every
// operation, by path template and then upper-case method, so the names in the client's errors and
// events cannot drift from the spec; whether the API accepts HTTPS only (its `x-https-only`); and
// the `User-Agent` the client sends, made of the client package's name and version.
import { httpsOnlyStatusOf } from '@mall-api/spec-model';

/**
 * The text of `operation-ids.ts` for one API's client.
 * @param {import('@mall-api/spec-model').SpecModel} model
 * @param {{ name: string, version: string }} manifest the client's package.json
 */
export function operationIdsModule(model, manifest) {
  /** @type {Map<string, string[]>} */
  const byPath = new Map();
  for (const { pathTemplate, method, operationId } of model.operations) {
    byPath.set(pathTemplate, [
      ...(byPath.get(pathTemplate) ?? []),
      `${method.toUpperCase()}: '${operationId}'`,
    ]);
  }
  const entries = [...byPath]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, ids]) => `  '${path}': { ${ids.sort().join(', ')} },`);
  // A product token allows no `@` or `/`: `@mall-api/admin-client` becomes `mall-api-admin-client`.
  const product = manifest.name.replace(/^@/, '').replace('/', '-');
  return (
    `export const operationIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {\n${entries.join('\n')}\n};\n` +
    `/** Whether the API accepts HTTPS only (\`x-https-only\`). */\n` +
    `export const httpsOnly = ${httpsOnlyStatusOf(model.document) !== undefined};\n` +
    `/** The \`User-Agent\` of ${manifest.name} ${manifest.version}. */\n` +
    `export const userAgent = '${product}/${manifest.version}';\n`
  );
}
