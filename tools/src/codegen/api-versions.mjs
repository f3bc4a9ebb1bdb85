// @ts-check
// The API versions of a client (`src/generated/api-versions.ts`) whose spec names a version
// header: the date versions of its bundle's `x-api-versions` (newest first, as `declaredApiVersionsOf`
// reads them), so a client's "latest version" cannot drift from the spec.
import { declaredApiVersionsOf } from '@mall-api/spec-model';

/**
 * The text of `api-versions.ts`, or undefined when the spec names no version header.
 * @param {import('@mall-api/spec-model').SpecModel} model
 */
export function apiVersionsModule(model) {
  const versions = declaredApiVersionsOf(model.document);
  if (versions?.header === undefined) return undefined;
  return (
    `/** The API versions (release dates) the spec describes, newest first. */\n` +
    `export const apiVersions = ${JSON.stringify(versions.dates)} as const;\n`
  );
}
