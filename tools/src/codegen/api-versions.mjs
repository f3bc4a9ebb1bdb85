// @ts-check
// The API versions of a client (`src/generated/api-versions.ts`) whose spec names a version
// header: the date versions of its bundle's `x-api-versions` (newest first, as `apiVersionsOf`
// reads them), so a client's "latest version" cannot drift from the spec.
import { apiVersionsOf } from '@mall-api/spec-model';

/**
 * The text of `api-versions.ts`, or undefined when the spec names no version header.
 * @param {import('@mall-api/spec-model').SpecModel} model
 */
export function apiVersionsModule(model) {
  if (model.document['x-api-versions'] === undefined) return undefined;
  const { header, dates } = apiVersionsOf(model.document);
  if (header === undefined) return undefined;
  return (
    `/** The API versions (release dates) the spec describes, newest first. */\n` +
    `export const apiVersions = ${JSON.stringify(dates)} as const;\n`
  );
}
