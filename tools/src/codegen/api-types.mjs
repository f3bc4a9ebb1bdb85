// @ts-check
// The TypeScript types of a bundled OpenAPI document (openapi-typescript, with the one set of
// options every generated API type file shares): `paths`, `components` and `operations`, which the
// clients, the sandbox's handler maps and the control client are typed by. bundle-specs.mjs writes
// them beside the shipped bundles; a test following CONTRIBUTING's recipe writes them for a scratch
// bundle the same way.
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The types module of the bundled document at `file` (a path or a URL).
 * @param {string | URL} file
 * @returns {Promise<string>}
 */
export const apiTypesModule = async (file) =>
  astToString(
    await openapiTS(typeof file === 'string' ? pathToFileURL(file) : file, { defaultNonNullable: false }),
  );
